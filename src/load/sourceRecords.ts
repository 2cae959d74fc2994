import { decompressIfGzip, type FieldMapping, forEachLine, type LineResult, type LineRun, lineReading, type Rollout } from '../format';
import { openByteStream } from './byteStream';
import type { LoadSource } from './sources';

/** A rollout by where it is read: its source's name, its line, and its ids (a line may hold several). */
export interface RolloutAt {
  file: string;
  line: number;
  rollout_id: string;
  attempt_id: string | null;
}

/** Reading work between two pauses, in ms: a page thread stays free to paint. */
const SLICE_MS = 20;
const now = () => (typeof performance === 'undefined' ? Date.now() : performance.now());

/**
 * Hands out the records of chosen rollouts read again from the page's sources, exactly as parsed from their
 * bytes, as a reader of the file (`trajscope export`) gets them: the load's compact records keep training
 * log-probs to float32 and lay their keys out their own way, so an export made from them would differ.
 * The sources are read once, in order; only the chosen lines of a v1 file are parsed, and reading stops
 * after a source's last chosen line. `read` must be asked in reading order (source order, then line);
 * `close` ends a read given up part-way.
 */
export function sourceRecordReader(
  sources: readonly LoadSource[],
  chosen: readonly RolloutAt[],
  options: { mapping?: FieldMapping; signal?: AbortSignal } = {},
): { read(at: RolloutAt): Promise<Rollout>; close(): void } {
  const lines = new Map<string, Set<number>>();
  for (const c of chosen) {
    const set = lines.get(c.file);
    if (set) set.add(c.line);
    else lines.set(c.file, new Set([c.line]));
  }
  const records = readChosen(sources, lines, options);
  let tail: Promise<unknown> = Promise.resolve();
  const next = async (at: RolloutAt): Promise<Rollout> => {
    for (;;) {
      const r = await records.next();
      if (r.done) throw new Error(`${at.file}:${at.line}: rollout ${at.rollout_id} is no longer in the file`);
      const { file, line, record } = r.value;
      if (file === at.file && line === at.line && record.rollout_id === at.rollout_id && (record.attempt_id ?? null) === at.attempt_id)
        return record;
    }
  };
  return {
    read(at) {
      // Asked ahead of their turn, reads still take the records in order.
      const read = tail.then(() => next(at));
      tail = read.catch(() => {});
      return read;
    },
    /** Lets go of the source being read (an export cancelled or done). */
    close() {
      records.return(undefined).catch(() => {});
    },
  };
}

async function* readChosen(
  sources: readonly LoadSource[],
  lines: ReadonlyMap<string, ReadonlySet<number>>,
  { mapping, signal }: { mapping?: FieldMapping; signal?: AbortSignal },
): AsyncGenerator<{ file: string; line: number; record: Rollout }> {
  // Imported here, where records are read (an export), not at the page's start: reading is async already.
  const { createLineParser, parseLine } = await lineReading();
  let sliceStart = now();
  for (const source of sources) {
    const wanted = lines.get(source.name);
    if (!wanted || wanted.size === 0) continue;
    const last = Math.max(...wanted);
    const { stream } = await openByteStream(source, signal);
    const content = await decompressIfGzip(stream);
    const runs: LineRun[] = [];
    // v1 lines come back unparsed, as runs: only the chosen ones are parsed.
    const parser = createLineParser(source.name, { ...(mapping ? { mapping } : {}), onV1Lines: (run) => runs.push(run) });
    const picked: { file: string; line: number; record: Rollout }[] = [];
    const pick = (results: readonly LineResult[]) => {
      // A push's results come before the runs it hands over (lineParser.ts).
      for (const r of results) if (r.kind === 'rollout' && wanted.has(r.value.line)) picked.push(r.value);
      for (const run of runs.splice(0))
        forEachLine(run, (bytes, line) => {
          if (!wanted.has(line)) return;
          const r = parseLine(bytes, line, source.name);
          if (r?.kind === 'rollout') picked.push(r.value);
        });
    };
    const reader = content.stream.getReader();
    try {
      for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
        signal?.throwIfAborted();
        pick(parser.push(chunk.value));
        yield* picked.splice(0);
        // Line by line, a line once read is done with; a whole document is read at its end.
        if (parser.format === 'v1' && parser.lines > last) break;
        if (now() - sliceStart > SLICE_MS) {
          await new Promise((resolve) => setTimeout(resolve, 0));
          sliceStart = now();
        }
      }
      if (!(parser.format === 'v1' && parser.lines > last)) pick(parser.end());
      yield* picked.splice(0);
    } finally {
      reader.releaseLock();
      content.stream.cancel().catch(() => {});
    }
  }
}
