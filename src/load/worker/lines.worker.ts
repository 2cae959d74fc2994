/// <reference lib="webworker" />
// Thin by design: a helper of the parse worker; handleLinesRequest does the work, and node tests drive it.
import { handleLinesRequest } from './pool';
import type { ToLinesWorker } from './protocol';

declare const self: DedicatedWorkerGlobalScope;

self.onmessage = (event: MessageEvent<ToLinesWorker>) => {
  const { reply, transfer } = handleLinesRequest(event.data);
  self.postMessage(reply, transfer);
};
