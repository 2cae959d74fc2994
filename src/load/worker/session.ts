import { transferables } from '../compact';
import type { ParsePool } from '../lineBlocks';
import { lintSources } from '../lintSources';
import type { LoadState } from '../loadState';
import { LoadError } from '../sources';
import type { FromWorker, ToWorker, WorkerSnapshot } from './protocol';
import { toWire } from './wire';

export type Post = (message: FromWorker, transfer: Transferable[]) => void;

/**
 * What the parse worker does, as a plain function of messages so node tests drive it without a Worker:
 * load sources (streaming, linting, compacting; parsing in a pool of helpers when given one), publish snapshots with only the new records (their
 * buffers transferred, not copied), and push later bytes of followed sources into the same parsers.
 */
export function createWorkerSession(
  post: Post,
  options: { pool?: () => ParsePool | undefined } = {},
): (message: ToWorker) => Promise<void> {
  let state: LoadState | null = null;

  const snapshot = (s: LoadState, done: boolean) => {
    const records = s.records.slice();
    const { result, transfer } = toWire(s.summary());
    const payload: WorkerSnapshot = { result, records };
    post({ type: 'snapshot', snapshot: payload, done }, [...transferables(...records), ...transfer]);
    // The page owns those buffers now: drop them here, so each snapshot carries only what is new.
    s.records.length = 0;
  };

  return async (message) => {
    if (message.type === 'append') {
      const source = state?.sources[message.source];
      if (!state || !source) return;
      state.push(source, new Uint8Array(message.bytes));
      state.end(source);
      snapshot(state, true);
      return;
    }
    // The pool parses while this thread reads and merges; it is let go when the load ends (appends are few).
    const pool = options.pool?.();
    try {
      await lintSources(message.sources, {
        pool,
        driftThreshold: message.driftThreshold,
        memoryLimit: message.memoryLimit,
        read: message.read,
        yieldToUi: false,
        follow: (s) => message.follow[message.sources.findIndex((x) => x.id === s.id)] ?? false,
        onProgress: (progress) => post({ type: 'progress', progress }, []),
        onSnapshot: (s) => snapshot(s, false),
        onState: (s) => {
          state = s;
        },
      });
      if (state) snapshot(state, true);
    } catch (e) {
      const error =
        e instanceof LoadError
          ? { reason: e.reason, source: e.source, message: e.message }
          : { reason: 'internal' as const, source: '', message: e instanceof Error ? e.message : String(e) };
      post({ type: 'error', error }, []);
    } finally {
      pool?.close();
    }
  };
}
