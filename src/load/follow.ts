import type { LoadResult } from './loadState';
import { type ServedFile, servedIdOf } from './served';
import type { LoadSource } from './sources';
import type { LiveLoad } from './worker/client';

/** What a follower does about one served file after the server reported its current size. */
export type FollowAction = { kind: 'none' } | { kind: 'append'; from: number } | { kind: 'reload'; why: string };

/** The last identity seen per source, to tell an append from a replacement. */
export type SeenInodes = Map<string, number>;

/**
 * Decides, for one source, whether to read its new bytes or reload it: a file that shrank or whose
 * inode changed was truncated or replaced, so what was parsed no longer describes it.
 */
export function followAction(bytesRead: number, gzip: boolean, file: ServedFile | undefined, seenIno: number | undefined): FollowAction {
  if (!file) return { kind: 'none' };
  if (seenIno !== undefined && file.ino !== seenIno) return { kind: 'reload', why: 'replaced' };
  if (file.size < bytesRead) return { kind: 'reload', why: 'truncated' };
  if (file.size === bytesRead) return { kind: 'none' };
  return gzip ? { kind: 'reload', why: 'gzip grew' } : { kind: 'append', from: bytesRead };
}

/**
 * Brings a live load up to date with the server's file list: reads only the new bytes of each grown file
 * (HTTP range) into the same parsers. Returns the new result, 'unchanged', or 'reload' when the load must
 * be read again from the start.
 */
export async function catchUp(
  live: LiveLoad,
  sources: readonly LoadSource[],
  files: readonly ServedFile[],
  seen: SeenInodes,
  fetchRange: (url: string, from: number) => Promise<Response> = (url, from) =>
    fetch(url, { headers: { Range: `bytes=${from}-` }, cache: 'no-store' }),
): Promise<LoadResult | 'unchanged' | 'reload'> {
  let latest: LoadResult | null = null;
  for (const [i, source] of sources.entries()) {
    const id = servedIdOf(source);
    if (id === null || source.kind !== 'url') continue;
    const file = files.find((f) => f.id === id);
    const read = live.sourceFile(i);
    // The inode the load read is the baseline until a list was seen: a file replaced between the load and
    // the first list must not read as grown (its new bytes from the old offset would be appended).
    const action = followAction(read?.bytes ?? 0, read?.gzip ?? false, file, seen.get(id) ?? read?.ino);
    if (file) seen.set(id, file.ino);
    if (action.kind === 'reload') return 'reload';
    if (action.kind !== 'append') continue;
    const res = await fetchRange(source.url, action.from);
    if (res.status === 416) continue;
    // A server that ignores the range sends the whole file again: appending it would duplicate every line.
    if (res.status !== 206) return 'reload';
    latest = await live.append(i, new Uint8Array(await res.arrayBuffer()));
  }
  return latest ?? 'unchanged';
}
