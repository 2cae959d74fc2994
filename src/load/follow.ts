import { checkWindows, windowsDigest } from '../format';
import { FOLLOW_CHECK_BYTES } from './followCheck';
import type { LoadResult } from './loadState';
import { type ServedFile, servedIdOf } from './served';
import type { LoadSource } from './sources';
import type { LiveLoad } from './worker/client';

/** What a follower does about one served file after the server reported its current size. */
export type FollowAction =
  | { kind: 'none' }
  | { kind: 'append'; from: number }
  /** Same size, but written since the last list: compare the last bytes read with the file's. */
  | { kind: 'check' }
  | { kind: 'reload'; why: string };

/** What the last list said of a file: to tell an append from a replacement, and a rewrite from nothing. */
interface SeenFile {
  ino: number;
  mtimeMs: number;
}
export type SeenFiles = Map<string, SeenFile>;

/**
 * Decides, for one source, whether to read its new bytes, check its last ones, or reload it: a file that
 * shrank or whose inode changed was truncated or replaced, so what was parsed no longer describes it. A
 * file of the same size written since the last list may have been rewritten in place.
 */
export function followAction(
  bytesRead: number,
  gzip: boolean,
  file: ServedFile | undefined,
  seenIno: number | undefined,
  seenMtime?: number,
): FollowAction {
  if (!file) return { kind: 'none' };
  if (seenIno !== undefined && file.ino !== seenIno) return { kind: 'reload', why: 'replaced' };
  if (file.size < bytesRead) return { kind: 'reload', why: 'truncated' };
  if (file.size === bytesRead) {
    const written = seenMtime !== undefined && file.mtimeMs !== seenMtime;
    return written && bytesRead > 0 ? (gzip ? { kind: 'reload', why: 'gzip rewritten' } : { kind: 'check' }) : { kind: 'none' };
  }
  return gzip ? { kind: 'reload', why: 'gzip grew' } : { kind: 'append', from: bytesRead };
}

/**
 * Brings a live load up to date with the server's file list: reads only the new bytes of each grown file
 * (HTTP range) into the same parsers. Each range read starts a little before the end already read, and
 * the first bytes are read too: when those windows no longer digest as `LoadedFile.check`, the file was
 * rewritten, not appended to (truncated and written past its old size, or rewritten in place), and the
 * load is read again. Returns the new result, 'unchanged', or 'reload' when the load must be read from the start.
 */
export async function catchUp(
  live: LiveLoad,
  sources: readonly LoadSource[],
  files: readonly ServedFile[],
  seen: SeenFiles,
  fetchRange: (url: string, from: number, to?: number) => Promise<Response> = (url, from, to) =>
    fetch(url, { headers: { Range: `bytes=${from}-${to ?? ''}` }, cache: 'no-store' }),
): Promise<LoadResult | 'unchanged' | 'reload'> {
  let latest: LoadResult | null = null;
  const byId = new Map(files.map((f) => [f.id, f]));
  for (const [i, source] of sources.entries()) {
    const id = servedIdOf(source);
    if (id === null || source.kind !== 'url') continue;
    const file = byId.get(id);
    const read = live.sourceFile(i);
    const before = seen.get(id);
    // The inode the load read is the baseline until a list was seen: a file replaced between the load and
    // the first list must not read as grown (its new bytes from the old offset would be appended).
    const action = followAction(read?.bytes ?? 0, read?.gzip ?? false, file, before?.ino ?? read?.ino, before?.mtimeMs);
    if (file) seen.set(id, { ino: file.ino, mtimeMs: file.mtimeMs });
    if (action.kind === 'reload') return 'reload';
    if (action.kind === 'none' || !read) continue;
    const check = read.check?.bytes === read.bytes ? read.check : null;
    const { head, tail } = checkWindows(read.bytes, FOLLOW_CHECK_BYTES);
    // Without a digest there is nothing to check: only new bytes are read. Windows that meet (a file of
    // at most twice their size) come in the one request, from the start.
    const from = check === null ? read.bytes : head.to === tail.from ? 0 : tail.from;
    const res = await fetchRange(source.url, from);
    if (res.status === 416) {
      // The file ends before bytes already read: not grown.
      if (from < read.bytes) return 'reload';
      continue;
    }
    // A server that ignores the range sends the whole file again: appending it would duplicate every line.
    if (res.status !== 206) return 'reload';
    const body = new Uint8Array(await res.arrayBuffer());
    const known = read.bytes - from;
    if (body.length < known) return 'reload';
    if (check !== null) {
      const first = from === 0 ? body.subarray(0, head.to) : await fetchHead(fetchRange, source.url, head.to);
      if (first === null || windowsDigest(first, body.subarray(tail.from - from, known)) !== check.hash) return 'reload';
    }
    if (action.kind === 'check' || body.length === known) continue;
    latest = await live.append(i, body.subarray(known));
  }
  return latest ?? 'unchanged';
}

/** A file's first `bytes` bytes by a range read, or null when the server does not give them all. */
async function fetchHead(
  fetchRange: (url: string, from: number, to?: number) => Promise<Response>,
  url: string,
  bytes: number,
): Promise<Uint8Array | null> {
  const res = await fetchRange(url, 0, bytes - 1);
  if (res.status !== 206) return null;
  const body = new Uint8Array(await res.arrayBuffer());
  return body.length >= bytes ? body.subarray(0, bytes) : null;
}
