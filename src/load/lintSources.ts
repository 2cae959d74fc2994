import { decompressIfGzip, type ReadOptions, readContent } from '../format';
import { errorText, type OpenedStream, openByteStream } from './byteStream';
import type { ParsePool } from './lineBlocks';
import { type LoadResult, LoadState } from './loadState';
import { LoadError, type LoadSource } from './sources';

export interface LoadProgress {
  /** Bytes read so far over all sources, as stored (compressed bytes for gzip). */
  bytesRead: number;
  /** Sum of the sources' sizes, or null while any size is unknown. */
  totalBytes: number | null;
  /** The source being read. */
  current: string;
  rollouts: number;
  parseErrors: number;
}

export interface LintSourcesOptions {
  signal?: AbortSignal;
  onProgress?: (progress: LoadProgress) => void;
  driftThreshold?: number;
  read?: ReadOptions;
  /** Sources to follow live: their last unterminated line is held back, and the state is handed out. */
  follow?: (source: LoadSource) => boolean;
  /** Receives the state when reading ends, so a live follower can push later bytes into it. */
  onState?: (state: LoadState) => void;
  /** Called every SNAPSHOT_EVERY_MS while reading (and once the first rollout is in), to show rows early. */
  onSnapshot?: (state: LoadState) => void;
  /** Bytes of memory this page may use (Chrome's jsHeapSizeLimit); a file that would need more is refused. */
  memoryLimit?: number;
  /** Pause every YIELD_EVERY_MS so a page thread can paint; off in the parse worker. */
  yieldToUi?: boolean;
  /**
   * Parses v1 lines in these threads while this one reads, splits and merges (docs/adr/0008). The load
   * lets go of it when reading ends (the caller closes it); later appends are parsed in this thread.
   */
  pool?: ParsePool;
}

/**
 * Memory held per byte of file, measured by `npm run bench` (0.23–0.25 on 256 and 602 MB files), with headroom for
 * the parse in flight: used to refuse, with a clear message, a file that would not fit, instead of crashing.
 */
const MEMORY_PER_FILE_BYTE = 0.4;

/** How often a load in progress publishes what it has: often enough to feel live, rarely enough to be cheap. */
const SNAPSHOT_EVERY_MS = 500;

/**
 * How often it says how far it has read. Said per chunk, a 256 MB file sent the page 158 messages, each a
 * render and a paint of the progress bar (54 renders in a trace of one load): ten a second moves the bar as
 * smoothly to the eye.
 */
const PROGRESS_EVERY_MS = 100;

// Parsing a chunk is synchronous, and a stream whose bytes are already buffered resolves reads as
// microtasks: run on the page's own thread, the load must give way now and then or the page would not
// paint progress until the end. In the parse worker nothing waits for it, and each pause costs a timer
// tick (measured: about 8% of a 256 MB load), so the worker does not pause.
const YIELD_EVERY_MS = 50;

/**
 * The whole load: reads each source as a byte stream, decompresses gzip (by magic bytes), splits and
 * validates lines with `createLineParser` (v1 or an adapted format) and lints them in one `LintSession`, so duplicates and groups are
 * judged across all sources together. No DOM and no React: a worker can call it as it is.
 */
export async function lintSources(sources: readonly LoadSource[], options: LintSourcesOptions = {}): Promise<LoadResult> {
  const { signal, onProgress } = options;
  const state = new LoadState({ driftThreshold: options.driftThreshold, pool: options.pool, read: options.read });
  const opened: Array<OpenedStream & { source: LoadSource }> = [];
  let bytesRead = 0;
  let lastYield = now();
  let lastSnapshot = Number.NEGATIVE_INFINITY;
  let lastProgress = Number.NEGATIVE_INFINITY;
  let snapshotRollouts = 0;

  try {
    // Open every source first so the total is known before the first byte is counted.
    for (const source of sources) opened.push({ source, ...(await openByteStream(source, signal)) });
    const totalBytes = opened.every((o) => o.total !== null) ? opened.reduce((sum, o) => sum + (o.total ?? 0), 0) : null;
    if (options.memoryLimit && totalBytes !== null && totalBytes * MEMORY_PER_FILE_BYTE > options.memoryLimit) {
      const gb = (n: number) => `${(n / 2 ** 30).toFixed(1)} GB`;
      throw new LoadError(
        'too-large',
        opened.map((o) => o.source.name).join(', '),
        `These files are ${gb(totalBytes)}; holding them needs about ${gb(totalBytes * MEMORY_PER_FILE_BYTE)}, more than this tab may use (${gb(options.memoryLimit)}). Open fewer or smaller files, or check them with \`trajscope lint\`, which streams any size.`,
      );
    }
    for (const { source, stream, ino } of opened) {
      const current = state.addSource(source.name, { follow: options.follow?.(source) ?? false });
      if (ino !== undefined) current.file.ino = ino;
      let stored = 0;
      const count = (n: number) => {
        bytesRead += n;
        stored += n;
      };
      let damage: string | null;
      try {
        const content = await decompressIfGzip(stream, count);
        current.file.gzip = content.gzip;
        damage = await readContent(
          content,
          async (chunk) => {
            // A reader's chunk is ours: a parse pool may take its buffer without copying it.
            state.push(current, chunk, { storedBytes: stored, owned: true });
            stored = 0;
            await state.room();
            const snapshotDue = options.onSnapshot && state.rollouts > snapshotRollouts && now() - lastSnapshot > SNAPSHOT_EVERY_MS;
            // With each snapshot, whenever it comes: the progress line and the rows it shows then agree.
            if (onProgress && (snapshotDue || now() - lastProgress >= PROGRESS_EVERY_MS)) {
              onProgress({ bytesRead, totalBytes, current: source.name, rollouts: state.rollouts, parseErrors: state.parseErrors });
              lastProgress = now();
            }
            if (options.onSnapshot && snapshotDue) {
              options.onSnapshot(state);
              snapshotRollouts = state.rollouts;
              lastSnapshot = now();
            }
            if (options.yieldToUi !== false && now() - lastYield > YIELD_EVERY_MS) {
              await new Promise((resolve) => setTimeout(resolve, 0));
              lastYield = now();
            }
          },
          // The gzip data stopped being gzip part-way (garbage after it, a cut file): what decompressed
          // before is kept, the native decoder's dropped part read again, and one error reports the rest.
          { signal, reopen: async () => (await openByteStream(source, signal)).stream },
        );
      } catch (e) {
        if (signal?.aborted || e instanceof LoadError) throw e;
        throw current.file.gzip
          ? new LoadError(
              'decompress',
              source.name,
              `${source.name} starts like a gzip file but could not be decompressed: ${errorText(e)}`,
            )
          : new LoadError('read', source.name, `Could not read ${source.name}: ${errorText(e)}`);
      }
      if (damage !== null) {
        current.file.bytes += stored;
        state.endWithError(current, damage);
        continue;
      }
      current.file.bytes += stored;
      // A gzip stream cannot be followed by appending bytes: it is read whole, like any other file.
      if (current.file.gzip) current.follow = false;
      state.end(current);
    }
    await state.settled();
    // The last word on progress is always said, however soon after the one before it.
    onProgress?.({
      bytesRead,
      totalBytes,
      current: opened.at(-1)?.source.name ?? '',
      rollouts: state.rollouts,
      parseErrors: state.parseErrors,
    });
  } finally {
    state.pool = null;
    // Release what a failure or an abort left unread (an open fetch keeps its connection).
    for (const { stream } of opened) if (!stream.locked) stream.cancel().catch(() => {});
  }
  options.onState?.(state);
  return state.snapshot();
}

function now(): number {
  return typeof performance === 'undefined' ? Date.now() : performance.now();
}
