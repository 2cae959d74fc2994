/// <reference lib="webworker" />
// Thin by design: fetches and decodes run-index shards (decodeHere, which node tests drive directly; its
// module, not runIndex.ts, so the worker's script holds no manifest schema or zod: 70 KB, not 133) off
// the page's thread, posting each row group as it is decoded, so the run page draws while a large run
// is still being read.
import { partBuffers } from '../run/runColumns';
import type { ShardRequest, ShardResponse } from '../run/shardDecoder';
import { decodeHere } from '../run/shardFetch';

declare const self: DedicatedWorkerGlobalScope;

self.onmessage = async (event: MessageEvent<ShardRequest>) => {
  const { id, url, rows, bytes } = event.data;
  try {
    await decodeHere(
      (...args) => fetch(...args),
      url,
      rows,
      (part) => self.postMessage({ id, part } satisfies ShardResponse, partBuffers(part)),
      bytes,
    );
    self.postMessage({ id, done: true } satisfies ShardResponse);
  } catch (e) {
    self.postMessage({ id, error: e instanceof Error ? e.message : String(e) } satisfies ShardResponse);
  }
};
