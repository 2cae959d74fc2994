import type { ShardPart } from './runColumns';
import { decodeHere, type ShardDecoder } from './runIndex';

export interface ShardRequest {
  id: number;
  url: string;
  rows: number;
}
export type ShardResponse = { id: number; part: ShardPart } | { id: number; error: string };

let worker: Worker | null | undefined;
let nextId = 0;
const waiting = new Map<number, { resolve: (p: ShardPart) => void; reject: (e: Error) => void }>();

function startWorker(): Worker | null {
  try {
    const w = new Worker(new URL('../worker/shard.worker.ts', import.meta.url), { type: 'module' });
    w.onmessage = (event: MessageEvent<ShardResponse>) => {
      const r = event.data;
      const wait = waiting.get(r.id);
      waiting.delete(r.id);
      if ('part' in r) wait?.resolve(r.part);
      else wait?.reject(new Error(r.error));
    };
    return w;
  } catch {
    return null;
  }
}

/**
 * Shards decoded in one worker, in the order asked (the page thread only merges them); on this thread
 * where no worker can start.
 */
export const workerShardDecoder: ShardDecoder = (url, rows) => {
  if (worker === undefined) worker = typeof Worker === 'undefined' ? null : startWorker();
  const w = worker;
  if (!w) return decodeHere((...args) => globalThis.fetch(...args), url, rows);
  const id = nextId++;
  return new Promise<ShardPart>((resolve, reject) => {
    waiting.set(id, { resolve, reject });
    w.postMessage({ id, url: new URL(url, globalThis.location?.href).href, rows } satisfies ShardRequest);
  });
};
