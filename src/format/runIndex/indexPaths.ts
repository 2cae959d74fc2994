/**
 * Why `path` cannot name a file inside the index folder, or null: a shard path is relative, POSIX, made
 * of plain names (no `..`, `.`, empty or absolute part, no backslash or NUL) and ends in `.parquet`. A run
 * travels with its index, so the manifest is untrusted: a path that leaves the folder would make the
 * index read, carry over or delete a file it never wrote (docs/adr/0021). Links are checked where files
 * are (src/cli/runIndex/ownFiles.ts); this is the rule the text alone can break.
 */
export function indexPathProblem(path: string): string | null {
  return relativePathProblem(path) ?? (path.endsWith('.parquet') ? null : 'is not a .parquet file');
}

/** `indexPathProblem` without the extension: a relative POSIX path of plain names. */
export function relativePathProblem(path: string): string | null {
  if (path.includes('\\') || path.includes('\0')) return 'has a backslash or NUL';
  if (path.startsWith('/') || /^[A-Za-z]:/.test(path)) return 'is absolute';
  if (path.split('/').some((part) => part === '' || part === '.' || part === '..'))
    return 'leaves the index folder (a "..", "." or empty part)';
  return null;
}

/** The folder of an index holding the converted copies of trace directories (`traces/<name>.jsonl`). */
export const CONVERTED_DIR = 'traces';

/**
 * Why `path` cannot name a converted copy the index wrote, or null: `traces/<name>.jsonl`, one plain name
 * (`relativePathProblem`), as `indexPathProblem` is for shards: the index reads, keeps and deletes it.
 */
export function convertedPathProblem(path: string): string | null {
  const parts = path.split('/');
  return (
    relativePathProblem(path) ??
    (parts.length === 2 && parts[0] === CONVERTED_DIR && path.endsWith('.jsonl') ? null : `is not ${CONVERTED_DIR}/<name>.jsonl`)
  );
}
