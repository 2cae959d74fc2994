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

/**
 * Response header on each served file: the inode of the bytes sent. A follower compares it with the
 * list's `ino` to tell a file replaced since it was read from one that grew.
 */
export const INODE_HEADER = 'X-Trajscope-Ino';

/** The inode a served file's response carries, or undefined (another server, a local file). */
export function parseInodeHeader(value: string | null): number | undefined {
  const n = value === null || value.trim() === '' ? Number.NaN : Number(value);
  return Number.isSafeInteger(n) && n >= 0 ? n : undefined;
}
