import { type GroupSummary, type LintReport, LintSession } from '../analysis';
import { JsonlParser, type Rollout } from '../format';
import { type Bytes, errorText, type OpenedStream, openByteStream } from './byteStream';
import { decompressIfGzip } from './gzip';
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

export interface LoadedFile {
  name: string;
  bytes: number;
  lines: number;
  gzip: boolean;
}

export interface LoadResult {
  report: LintReport;
  /** The validated records, index-aligned with `report.rollouts`, for the views that open one. */
  records: Rollout[];
  /** Each rollout's advantage in its group (null when not counted), index-aligned with `report.rollouts`. */
  advantages: { grpo: (number | null)[]; drGrpo: (number | null)[] };
  /** Group statistics without std normalisation (Dr. GRPO); `report.groups` has the GRPO ones. */
  drGrpoGroups: GroupSummary[];
  files: LoadedFile[];
}

export interface LintSourcesOptions {
  signal?: AbortSignal;
  onProgress?: (progress: LoadProgress) => void;
  driftThreshold?: number;
}

// Parsing a chunk is synchronous, and a stream whose bytes are already buffered resolves reads as
// microtasks: without an occasional macrotask the page would not paint progress until the end.
const YIELD_EVERY_MS = 50;

/**
 * The whole load: reads each source as a byte stream, decompresses gzip (by magic bytes), splits and
 * validates lines with `JsonlParser` and lints them in one `LintSession`, so duplicates and groups are
 * judged across all sources together. No DOM and no React: a worker can call it as it is.
 */
export async function lintSources(sources: readonly LoadSource[], options: LintSourcesOptions = {}): Promise<LoadResult> {
  const { signal, onProgress } = options;
  const session = new LintSession(options.driftThreshold === undefined ? {} : { driftThreshold: options.driftThreshold });
  const files: LoadedFile[] = [];
  const records: Rollout[] = [];
  const opened: Array<OpenedStream & { source: LoadSource }> = [];
  let bytesRead = 0;
  let rollouts = 0;
  let parseErrors = 0;
  let lastYield = now();

  try {
    // Open every source first so the total is known before the first byte is counted.
    for (const source of sources) opened.push({ source, ...(await openByteStream(source, signal)) });
    const totalBytes = opened.every((o) => o.total !== null) ? opened.reduce((sum, o) => sum + (o.total ?? 0), 0) : null;
    for (const { source, stream } of opened) {
      const counted = stream.pipeThrough(
        new TransformStream<Bytes, Bytes>({
          transform(chunk, controller) {
            bytesRead += chunk.length;
            controller.enqueue(chunk);
          },
        }),
      );
      const parser = new JsonlParser(source.name);
      const startBytes = bytesRead;
      const report = (results: ReturnType<JsonlParser['push']>) => {
        for (const result of results) {
          session.add(result);
          if (result.kind === 'rollout') {
            rollouts++;
            records.push(result.value.record);
          } else parseErrors++;
        }
      };
      let gzip = false;
      try {
        const content = await decompressIfGzip(counted);
        gzip = content.gzip;
        const reader = content.stream.getReader();
        try {
          for (;;) {
            signal?.throwIfAborted();
            const next = await reader.read();
            if (next.done) break;
            report(parser.push(next.value));
            onProgress?.({
              bytesRead,
              totalBytes,
              current: source.name,
              rollouts,
              parseErrors,
            });
            if (now() - lastYield > YIELD_EVERY_MS) {
              await new Promise((resolve) => setTimeout(resolve, 0));
              lastYield = now();
            }
          }
        } finally {
          reader.releaseLock();
        }
      } catch (e) {
        if (signal?.aborted || e instanceof LoadError) throw e;
        throw gzip
          ? new LoadError(
              'decompress',
              source.name,
              `${source.name} starts like a gzip file but could not be decompressed: ${errorText(e)}`,
            )
          : new LoadError('read', source.name, `Could not read ${source.name}: ${errorText(e)}`);
      }
      report(parser.end());
      session.addLineCount(parser.lines);
      files.push({
        name: source.name,
        bytes: bytesRead - startBytes,
        lines: parser.lines,
        gzip,
      });
    }
  } finally {
    // Release what a failure or an abort left unread (an open fetch keeps its connection).
    for (const { stream } of opened) if (!stream.locked) stream.cancel().catch(() => {});
  }
  return {
    report: session.report(),
    records,
    advantages: { grpo: session.advantages(true), drGrpo: session.advantages(false) },
    drGrpoGroups: session.report(false).groups,
    files,
  };
}

function now(): number {
  return typeof performance === 'undefined' ? Date.now() : performance.now();
}
