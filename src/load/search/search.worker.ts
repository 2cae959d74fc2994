/// <reference lib="webworker" />
// Thin by design: wires one search request to scanSources, which node tests drive directly. The page
// cancels a search by terminating this worker.
import type { FromSearchWorker, ToSearchWorker } from './protocol';
import { scanSources } from './scanSources';

declare const self: DedicatedWorkerGlobalScope;
const post = (m: FromSearchWorker) => self.postMessage(m);

self.onmessage = (event: MessageEvent<ToSearchWorker>) => {
  const { sources, query, mapping } = event.data;
  scanSources(sources, query, mapping ? { mapping } : {}, {
    onMatches: (matches) => post({ type: 'matches', matches }),
    onProgress: (progress) => post({ type: 'progress', progress }),
  }).then(
    (records) => post({ type: 'done', records }),
    (e) => post({ type: 'error', message: e instanceof Error ? e.message : String(e) }),
  );
};
