import type { LoadResult } from './loadState';
import { type ServedFile, servedIdOf } from './served';
import type { LoadSource } from './sources';
import { hashBytes, type TailDigest } from './tailCheck';
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
 * (HTTP range) into the same parsers. Each range read starts a little before the end already read (the
 * bytes the load hashed, `LoadedFile.tail`): when those bytes changed, the file was rewritten, not
 * appended to (truncated and written past its old size, or rewritten in place), and the load is read
 * again. Returns the new result, 'unchanged', or 'reload' when the load must be read from the start.
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
    const tail = read.tail && read.tail.bytes <= read.bytes ? read.tail : NOTHING;
    const head = read.head && read.head.bytes <= read.bytes ? read.head : NOTHING;
    const res = await fetchRange(source.url, read.bytes - tail.bytes);
    if (res.status === 416) {
      if (tail.bytes > 0) return 'reload';
      continue;
    }
    // A server that ignores the range sends the whole file again: appending it would duplicate every line.
    if (res.status !== 206) return 'reload';
    const body = new Uint8Array(await res.arrayBuffer());
    if (!matches(body, tail)) return 'reload';
    // The first bytes too, unless the tail window already covered them.
    if (head.bytes > 0 && read.bytes > tail.bytes) {
      const first = await fetchRange(source.url, 0, head.bytes - 1);
      if (first.status !== 206 || !matches(new Uint8Array(await first.arrayBuffer()), head)) return 'reload';
    }
    if (action.kind === 'check' || body.length === tail.bytes) continue;
    latest = await live.append(i, body.subarray(tail.bytes));
  }
  return latest ?? 'unchanged';
}

const NOTHING: TailDigest = { bytes: 0, hash: '' };

function matches(body: Uint8Array, digest: TailDigest): boolean {
  return body.length >= digest.bytes && (digest.bytes === 0 || hashBytes(body.subarray(0, digest.bytes)) === digest.hash);
}
