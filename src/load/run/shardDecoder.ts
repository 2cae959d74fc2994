import type { ShardPart } from './runColumns';
import type { ShardDecoder } from './runIndex';
import { decodeHere } from './shardFetch';

export interface ShardRequest {
  id: number;
  url: string;
  rows: number;
  /** The shard file's size, when the manifest gives it. */
  bytes?: number;
}
/** Each of a shard's row groups as it is decoded, then `done` (or the error). */
export type ShardResponse = { id: number; part: ShardPart } | { id: number; done: true } | { id: number; error: string };

let worker: Worker | null | undefined;
let nextId = 0;
const waiting = new Map<number, { onPart: (p: ShardPart) => void; resolve: () => void; reject: (e: Error) => void }>();

function startWorker(): Worker | null {
  try {
    const w = new Worker(new URL('../worker/shard.worker.ts', import.meta.url), { type: 'module' });
    w.onmessage = (event: MessageEvent<ShardResponse>) => {
      const r = event.data;
      const wait = waiting.get(r.id);
      if ('part' in r) {
        wait?.onPart(r.part);
        return;
      }
      waiting.delete(r.id);
      if ('done' in r) wait?.resolve();
      else wait?.reject(new Error(r.error));
    };
    return w;
  } catch {
    return null;
  }
}

/**
 * The worker, started on first use. Called before the manifest is fetched too: the worker then loads its
 * script while the manifest is on its way, not after.
 */
export function shardWorker(): Worker | null {
  if (worker === undefined) worker = typeof Worker === 'undefined' ? null : startWorker();
  return worker;
}

/**
 * Shards decoded in one worker, in the order asked, each row group posted as it is decoded (the page
 * thread only merges them); on this thread where no worker can start.
 */
export const workerShardDecoder: ShardDecoder = (url, rows, onPart, bytes) => {
  const w = shardWorker();
  if (!w) return decodeHere((...args) => globalThis.fetch(...args), url, rows, onPart, bytes);
  const id = nextId++;
  return new Promise<void>((resolve, reject) => {
    waiting.set(id, { onPart, resolve, reject });
    w.postMessage({ id, url: new URL(url, globalThis.location?.href).href, rows, bytes } satisfies ShardRequest);
  });
};
