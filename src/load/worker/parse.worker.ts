/// <reference lib="webworker" />
// Thin by design: the worker only wires messages to createWorkerSession, which node tests drive directly.
import type { ToWorker } from './protocol';
import { createWorkerSession } from './session';

declare const self: DedicatedWorkerGlobalScope;

const handle = createWorkerSession((message, transfer) => self.postMessage(message, transfer));
self.onmessage = (event: MessageEvent<ToWorker>) => void handle(event.data);
