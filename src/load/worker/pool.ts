import { type LineBlock, type ParsePool, type ProcessedLine, parseBlock, processedTransferables, runBytes } from '../lineBlocks';
import { LoadError } from '../sources';
import type { FromLinesWorker, ToLinesWorker } from './protocol';

/** What a lines worker does with a message: a plain function, so node tests drive it without a Worker. */
export function handleLinesRequest(request: ToLinesWorker): { reply: FromLinesWorker; transfer: Transferable[] } {
  try {
    const lines = parseBlock(request.block, request.checks);
    return { reply: { id: request.id, lines }, transfer: processedTransferables(lines) };
  } catch (e) {
    // parseLine never throws on bad input; this is a bug or an out-of-memory, reported rather than hung on.
    return { reply: { id: request.id, error: e instanceof Error ? e.message : String(e) }, transfer: [] };
  }
}

/** The part of a Worker the pool uses. */
export interface LinesWorker {
  postMessage(message: ToLinesWorker, transfer: Transferable[]): void;
  onmessage: ((event: MessageEvent<FromLinesWorker>) => void) | null;
  onerror: ((event: ErrorEvent) => void) | null;
  terminate(): void;
}

interface Pending {
  file: string;
  bytes: number;
  resolve: (lines: ProcessedLine[]) => void;
  reject: (error: unknown) => void;
}

/**
 * Lines workers sharing a load's parsing (docs/adr/0008). Each block goes to the worker with the fewest
 * bytes outstanding; its bytes are transferred there, and the compact records' buffers transferred back.
 */
export function createWorkerPool(size: number, spawn: () => LinesWorker): ParsePool {
  const workers = Array.from({ length: Math.max(1, size) }, () => {
    const worker = spawn();
    const pending = new Map<number, Pending>();
    const slot = { worker, pending, outstanding: 0 };
    const settle = (id: number) => {
      const p = pending.get(id);
      pending.delete(id);
      if (p) slot.outstanding -= p.bytes;
      return p;
    };
    worker.onmessage = ({ data }) => {
      const p = settle(data.id);
      if (!p) return;
      if ('lines' in data) p.resolve(data.lines);
      else p.reject(new LoadError('read', p.file, `A parse worker failed while reading ${p.file}: ${data.error}`));
    };
    worker.onerror = (event) => {
      event.preventDefault?.();
      for (const id of [...pending.keys()]) {
        const p = settle(id);
        p?.reject(new LoadError('read', p.file, `A parse worker stopped while reading ${p.file}: ${event.message || 'it crashed'}`));
      }
    };
    return slot;
  });
  let nextId = 0;
  return {
    parse(block: LineBlock, checks) {
      const slot = workers.reduce((a, b) => (b.outstanding < a.outstanding ? b : a));
      const id = nextId++;
      const bytes = runBytes(block);
      return new Promise<ProcessedLine[]>((resolve, reject) => {
        slot.pending.set(id, { file: block.file, bytes, resolve, reject });
        slot.outstanding += bytes;
        const message: ToLinesWorker = { id, block, checks };
        const buffers = new Set<ArrayBuffer>();
        for (const p of block.parts) if (p.buffer instanceof ArrayBuffer) buffers.add(p.buffer);
        slot.worker.postMessage(message, [...buffers]);
      });
    },
    close() {
      for (const { worker } of workers) worker.terminate();
    },
  };
}
