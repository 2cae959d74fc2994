import type { ShardPart } from './runColumns';
import { type Fetch, openShard } from './shardBytes';

/*
 * A shard's bytes fetched and decoded: what the shard worker runs. Apart from runIndex.ts, which reads
 * manifests with format's schemas: the worker's script holds neither them nor zod (70 KB, not 133), less
 * to fetch and compile on a machine busy starting the page (issue 25).
 */

export function shardUrl(manifestUrl: string, path: string): string {
  return new URL(path.split('/').map(encodeURIComponent).join('/'), manifestUrl).href;
}

/** The ends of the last download and the last decode asked for on this thread. */
let downloaded: Promise<void> = Promise.resolve();
let decoded: Promise<void> = Promise.resolve();

/** A place in a queue: waits for the one before, and lets the next go once `done` is called. */
function queued(last: Promise<void>): { turn: Promise<void>; next: Promise<void>; done: () => void } {
  let done = () => {};
  const next = new Promise<void>((r) => (done = r));
  return { turn: last, next, done };
}

/**
 * Fetches and decodes a shard on this thread (the shard worker; tests, and where no worker can start),
 * one download and one decode at a time, in the order asked; a shard downloads while the one before it
 * decodes. The run reader asks for two shards at once, and when both downloaded and decoded together
 * the first shard's first row group, the one the first chart waits for, came after the second shard's
 * last: two decodes interleaved on one thread, and two downloads shared the bandwidth (1.0 s later on
 * the bench's run, issue 25).
 */
export async function decodeHere(
  fetch: Fetch,
  url: string,
  rows: number,
  onPart: (part: ShardPart) => void,
  bytes?: number,
): Promise<void> {
  const download = queued(downloaded);
  const decode = queued(decoded);
  downloaded = download.next;
  decoded = decode.next;
  try {
    await decodeInTurn(fetch, url, rows, bytes, onPart, download, decode.turn);
  } finally {
    download.done();
    decode.done();
  }
}

async function decodeInTurn(
  fetch: Fetch,
  url: string,
  rows: number,
  bytes: number | undefined,
  onPart: (part: ShardPart) => void,
  download: { turn: Promise<void>; done: () => void },
  decodeTurn: Promise<void>,
): Promise<void> {
  // Imported here, not at the top: the page's thread decodes no shard when a worker can start, and the
  // Parquet reader is not part of its startup script (issue 25). Started with the fetch, so no wait is added.
  const reader = import('./shardRows');
  // A failed fetch is the error to report; the import's own failure, if any, is thrown at its await.
  reader.catch(() => {});
  await download.turn;
  // The body streams in: the next shard's download waits for its end, this shard's decode does not.
  const shard = await openShard(fetch, url, bytes);
  shard.whole.then(download.done, download.done);
  const { decodeShard } = await reader;
  await decodeTurn;
  await decodeShard(shard, rows, url, onPart);
}
