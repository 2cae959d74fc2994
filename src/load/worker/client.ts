import { AsyncQueue } from '../asyncQueue';
import type { LoadProgress } from '../lintSources';
import type { LoadedFile, LoadResult, LoadState, ReadOptions } from '../loadState';
import { LoadError, type LoadSource } from '../sources';
import type { FromWorker, ToWorker, WorkerSource } from './protocol';
import { fromWire } from './wire';

/** A finished load that keeps following its live sources: the follower feeds it new bytes. */
export interface LiveLoad {
  /** What was read of a source so far: bytes as stored (where the next range read starts), gzip, inode. */
  sourceFile(source: number): LoadedFile | undefined;
  append(source: number, bytes: Uint8Array): Promise<LoadResult>;
  close(): void;
}

export interface StreamLoadOptions {
  signal?: AbortSignal;
  onProgress?: (progress: LoadProgress) => void;
  follow?: (source: LoadSource) => boolean;
  driftThreshold?: number;
  read?: ReadOptions;
  /** Receives the live handle when a load with followed sources finishes. */
  onLive?: (live: LiveLoad) => void;
}

/**
 * Loads sources and yields a growing LoadResult: first rows as soon as they are parsed, the full result
 * last. In a browser the parsing runs in a Web Worker (the page stays responsive, typed arrays are
 * transferred); where there is no Worker (node tests) the same code runs in this thread.
 */
export function streamLoad(sources: readonly LoadSource[], options: StreamLoadOptions = {}): AsyncIterable<LoadResult> {
  return typeof Worker === 'undefined' ? inThread(sources, options) : inWorker(sources, options);
}

/** A live handle over a load state in this thread. */
export function liveFromState(state: LoadState): LiveLoad {
  return {
    sourceFile: (i) => state.sources[i]?.file,
    append: async (i, bytes) => {
      const s = state.sources[i];
      if (s) {
        state.push(s, bytes);
        state.end(s);
      }
      return state.snapshot();
    },
    close: () => {},
  };
}

function inThread(sources: readonly LoadSource[], options: StreamLoadOptions): AsyncIterable<LoadResult> {
  const queue = new AsyncQueue<LoadResult>();
  // Imported when used: the line parser and every format converter stay out of the page's startup script
  // (issue 25); a browser parses in the worker, and this path already answers through a promise.
  import('../lintSources')
    .then(({ lintSources }) =>
      lintSources(sources, {
        signal: options.signal,
        onProgress: options.onProgress,
        follow: options.follow,
        driftThreshold: options.driftThreshold,
        read: options.read,
        onSnapshot: (s) => queue.push(s.snapshot()),
        onState: (state) => {
          if (options.onLive && state.sources.some((s) => s.follow)) options.onLive(liveFromState(state));
        },
      }),
    )
    .then(
      (result) => {
        queue.push(result);
        queue.close();
      },
      (e) => queue.fail(e),
    );
  return queue;
}

/** Chrome's per-tab heap limit (non-standard `performance.memory`); undefined elsewhere. */
function heapLimit(): number | undefined {
  const memory = (performance as Performance & { memory?: { jsHeapSizeLimit?: number } }).memory;
  return memory?.jsHeapSizeLimit;
}

function toWorkerSource(source: LoadSource): WorkerSource {
  // A worker resolves relative URLs against its own script, not the page: make them absolute here.
  return source.kind === 'file' ? source : { ...source, url: new URL(source.url, globalThis.location?.href).href };
}

// A worker started ahead of need: loading and compiling its module (zod, the analysis) takes a visible
// moment, which the first load would otherwise wait for.
let spare: Worker | null = null;

function newWorker(): Worker {
  return new Worker(new URL('./parse.worker.ts', import.meta.url), { type: 'module' });
}

/** Starts a parse worker in the background, so the next load begins at once. */
export function prewarmParseWorker(): void {
  if (typeof Worker !== 'undefined' && spare === null) spare = newWorker();
}

function takeWorker(): Worker {
  const worker = spare ?? newWorker();
  spare = null;
  return worker;
}

function inWorker(sources: readonly LoadSource[], options: StreamLoadOptions): AsyncIterable<LoadResult> {
  const queue = new AsyncQueue<LoadResult>();
  const worker = takeWorker();
  const follow = sources.map((s) => options.follow?.(s) ?? false);
  let current: LoadResult | null = null;
  let pendingAppend: ((r: LoadResult) => void) | null = null;
  let finished = false;

  // A worker that ends, whatever the reason, leaves the next one started: a load after a failed or
  // stopped one (a link to a missing file, then the right one) would otherwise wait for a new worker and its
  // lines workers to load their scripts (150-240 ms in a trace of the bench's load).
  const end = () => {
    worker.terminate();
    prewarmParseWorker();
  };
  options.signal?.addEventListener('abort', () => {
    end();
    queue.fail(options.signal?.reason ?? new DOMException('aborted', 'AbortError'));
  });
  worker.onerror = (e) => {
    end();
    queue.fail(new LoadError('read', sources[0]?.name ?? '', `The parse worker failed: ${e.message}`));
  };
  worker.onmessage = (event: MessageEvent<FromWorker>) => {
    const msg = event.data;
    if (msg.type === 'progress') {
      options.onProgress?.(msg.progress);
      return;
    }
    if (msg.type === 'error') {
      end();
      const { reason, source, message } = msg.error;
      queue.fail(reason === 'internal' || reason === 'aborted' ? new Error(message) : new LoadError(reason, source, message));
      return;
    }
    const snap = msg.snapshot;
    current = { ...fromWire(snap.result), records: (current?.records ?? []).concat(snap.records) };
    if (pendingAppend) {
      const resolve = pendingAppend;
      pendingAppend = null;
      resolve(current);
      return;
    }
    queue.push(current);
    if (msg.done && !finished) {
      finished = true;
      queue.close();
      if (follow.some(Boolean) && options.onLive) {
        options.onLive({
          sourceFile: (i) => current?.files[i],
          append: (i, chunk) =>
            new Promise<LoadResult>((resolve) => {
              pendingAppend = resolve;
              const copy = chunk.slice().buffer;
              const message: ToWorker = { type: 'append', source: i, bytes: copy };
              worker.postMessage(message, [copy]);
            }),
          close: end,
        });
      } else {
        // Nothing to follow: free the worker's memory (its lint state) at once, and have the next one ready.
        end();
      }
    }
  };
  const message: ToWorker = {
    type: 'load',
    sources: sources.map(toWorkerSource),
    follow,
    memoryLimit: heapLimit(),
    driftThreshold: options.driftThreshold,
    read: options.read,
  };
  worker.postMessage(message);
  return queue;
}
