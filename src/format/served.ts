/**
 * The list of files `trajscope view` serves (`/api/files` and each change event): the one contract the
 * server (src/cli/server/catalog.ts) writes and the page (src/load/served.ts) reads.
 */
export interface ServedFile {
  /** URL-safe id: `f<n>` for a named file, `d<n>/<relative path>` for a file inside a named directory. */
  id: string;
  /** What a person reads: the name as given, or directory/relative path. */
  name: string;
  size: number;
  mtimeMs: number;
  /** Changes when the file is replaced rather than appended to (rename over it, delete and re-create). */
  ino: number;
}

function isServedFile(v: unknown): v is ServedFile {
  if (typeof v !== 'object' || v === null) return false;
  const f = v as Record<string, unknown>;
  return typeof f.id === 'string' && typeof f.name === 'string' && typeof f.size === 'number' && typeof f.ino === 'number';
}

/** Parses the server's list; anything else (a 404 page, an SPA fallback) means "not served by trajscope view". */
export function parseServedList(text: string): ServedFile[] | null {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return null;
  }
  return Array.isArray(body) && body.every(isServedFile) ? body : null;
}
