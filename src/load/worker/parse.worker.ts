/// <reference lib="webworker" />
// Thin by design: the worker only wires messages to createWorkerSession, which node tests drive directly.
import type { ParsePool } from '../lineBlocks';
import { createWorkerPool } from './pool';
import type { ToWorker } from './protocol';
import { createWorkerSession } from './session';

declare const self: DedicatedWorkerGlobalScope;

// One lines worker per core (docs/adr/0008): this thread reads, splits and merges, they parse. Started
// now, with this worker, so their modules are loaded before the first block arrives.
const size = Math.min(4, Math.max(1, self.navigator.hardwareConcurrency || 1));
const spawn = () => new Worker(new URL('./lines.worker.ts', import.meta.url), { type: 'module' });
/** A pool, or none where a worker cannot start workers of its own: this thread then parses alone. */
function tryPool(): ParsePool | undefined {
  try {
    return typeof Worker === 'undefined' ? undefined : createWorkerPool(size, spawn);
  } catch {
    return undefined;
  }
}
let spare = tryPool();
const pool = () => {
  const next = spare ?? tryPool();
  spare = undefined;
  return next;
};

const handle = createWorkerSession((message, transfer) => self.postMessage(message, transfer), { pool });
self.onmessage = (event: MessageEvent<ToWorker>) => void handle(event.data);
