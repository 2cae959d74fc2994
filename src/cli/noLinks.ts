import { constants } from 'node:fs';
import { type FileHandle, lstat, readlink } from 'node:fs/promises';
import { join } from 'node:path';

/** Read-only, no-follow on the last component, and never block on a FIFO put where a file was; 0 where the OS lacks them. */
export const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0);

/**
 * Whether an opened file is `root/rel...` reached through real directories only (docs/adr/0010): the view
 * server's served files and a trace directory's files are read only so.
 * On Linux the kernel says where the descriptor's file is (/proc/self/fd): opened through a directory or
 * entry swapped for a link, that is somewhere else, whatever the path shows now. Elsewhere, an lstat walk
 * after the open: a link in the path, or a different inode at its end, refuses.
 */
export async function reachesWithoutLinks(
  handle: FileHandle,
  root: string,
  rel: string[],
  opened: { dev: number; ino: number },
): Promise<boolean> {
  const expected = rel.length === 0 ? root : join(root, ...rel);
  if (process.platform === 'linux') {
    const where = await readlink(`/proc/self/fd/${handle.fd}`).catch(() => null);
    if (where !== null) return where === expected;
  }
  let at = root;
  for (const part of rel.slice(0, -1)) {
    at = join(at, part);
    if (!(await lstat(at)).isDirectory()) return false;
  }
  const last = await lstat(expected);
  return last.isFile() && last.dev === opened.dev && last.ino === opened.ino;
}
