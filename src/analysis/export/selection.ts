import type { Rollout } from '../../format';
import type { TokenText } from '../rewrite';
import { type IdDecoder, isQwenTokenizer, recordTokenText } from '../tokens';
import type { RolloutSummary } from '../types';
import { dpoSink, type ExportSink, type LineOut, type Skips, sftSink, TextLines, type TokenTextOf, v1Sink } from './sinks';

/*
 * The page's export of a selection (the search page's matches, the run list's filtered rows): the same
 * sinks as `trajscope export`, fed from rows the page already holds and records read by key, a few at a
 * time, giving way to the page between slices so a large selection never holds it for long.
 */

/** The formats the page writes itself; parquet's index rows are the CLI's (they need each line's bytes). */
export type PageFormat = 'v1' | 'sft' | 'dpo';

/** One selected rollout: its run-list row and its `rollout=` key. */
export interface SelectedRollout {
  summary: RolloutSummary;
  key: string;
}

/** The rows at these indices (a search's results, a filtered list in any sort), in reading order. */
export function selectedRollouts(rows: readonly RolloutSummary[], keys: readonly string[], indices: Iterable<number>): SelectedRollout[] {
  const out: SelectedRollout[] = [];
  for (const i of [...new Set(indices)].sort((a, b) => a - b)) {
    const summary = rows[i];
    if (summary) out.push({ summary, key: keys[i] ?? '' });
  }
  return out;
}

/**
 * Token text as `cliTokenText` gives it: the record's own token strings, and the Qwen3 vocabulary when
 * the record names it, loaded once on first need (`load`: the page's token table, the same text as the
 * CLI's tokenizer package, src/load/qwenTokenTable.test.ts).
 */
export function tokenTextLoading(load: () => Promise<IdDecoder | null>): (record: Rollout) => TokenText | Promise<TokenText> {
  let qwen: Promise<IdDecoder | null> | null = null;
  return (record) => {
    if (!isQwenTokenizer(record)) return recordTokenText(record, null);
    qwen ??= load();
    return qwen.then((decoder) => recordTokenText(record, decoder));
  };
}

export interface SelectionExport {
  format: PageFormat;
  /** The query (or the description of the filters) that chose the rollouts: in every record's provenance. */
  where: string;
  /** In reading order (file, then line), as the CLI reads them: dpo keeps the first of equal rewards. */
  selected: readonly SelectedRollout[];
  /**
   * The full record exactly as its line parses (a run's Dataset.rollout, read by range; the page's files
   * read again, src/load/sourceRecords.ts): asked in order, up to `ahead` before it is needed.
   */
  read(rollout: SelectedRollout): Rollout | Promise<Rollout> | undefined;
  /** The token text a record is decoded with; may wait for a tokenizer to load. Not asked for v1. */
  tokenText(record: Rollout): TokenText | null | Promise<TokenText | null>;
  signal?: AbortSignal;
  onProgress?(done: number, total: number): void;
  /** Reads in flight at once (a run's are HTTP range requests). */
  ahead?: number;
  /** Work between two pauses, in ms: under the 50 ms a task may take before the page feels held. */
  sliceMs?: number;
  /** How the export gives way to the page (a timer by default). */
  pause?(): Promise<void>;
}

export interface ExportedText {
  /** The JSON Lines text, in parts for a Blob. */
  chunks: string[];
  written: number;
  unit: string;
  skips: Skips;
}

const AHEAD = 4;
const SLICE_MS = 20;
const timer = () => new Promise<void>((resolve) => setTimeout(resolve, 0));
const now = () => (typeof performance === 'undefined' ? Date.now() : performance.now());

function sinkFor(format: PageFormat, out: LineOut, where: string, tokenText: TokenTextOf): ExportSink {
  if (format === 'sft') return sftSink(out, tokenText);
  if (format === 'dpo') return dpoSink(out, where, tokenText);
  return v1Sink(out);
}

/**
 * Writes the selection in the format, as `trajscope export --where <where> --as <format>` writes the same
 * rollouts: the same sinks, the same provenance (file, line, rollout key, query). Rejects with the
 * signal's reason when cancelled, and when a selected rollout is no longer in the data.
 */
export async function exportSelection(job: SelectionExport): Promise<ExportedText> {
  const { selected, signal } = job;
  const pause = job.pause ?? timer;
  const ahead = Math.max(1, job.ahead ?? AHEAD);
  const sliceMs = job.sliceMs ?? SLICE_MS;
  const out = new TextLines();
  // The sinks decode synchronously; the text is found (and a tokenizer loaded) before each `take`.
  let text: TokenText | null = null;
  const sink = sinkFor(job.format, out, job.where, () => text);
  const reads = new Map<number, Rollout | Promise<Rollout> | undefined>();
  const start = (i: number) => {
    const s = selected[i];
    if (s && !reads.has(i)) reads.set(i, job.read(s));
  };
  let sliceStart = now();
  const giveWay = async () => {
    if (now() - sliceStart < sliceMs) return;
    await pause();
    signal?.throwIfAborted();
    sliceStart = now();
  };
  signal?.throwIfAborted();
  for (let i = 0; i < selected.length; i++) {
    for (let j = i; j < Math.min(selected.length, i + ahead); j++) start(j);
    const s = selected[i] as SelectedRollout;
    const pending = reads.get(i);
    reads.delete(i);
    const record = pending instanceof Promise ? await pending : pending;
    signal?.throwIfAborted();
    if (record === undefined) throw new Error(`rollout ${s.key} is no longer in the data`);
    if (job.format !== 'v1') {
      const found = job.tokenText(record);
      text = found instanceof Promise ? await found : found;
      signal?.throwIfAborted();
    }
    sink.take({
      record,
      summary: s.summary,
      provenance: { file: s.summary.file, line: s.summary.line, rollout_key: s.key, where: job.where },
    });
    job.onProgress?.(i + 1, selected.length);
    await giveWay();
  }
  const closing = sink.closing();
  try {
    while (!closing.next().done) await giveWay();
  } finally {
    // Cancelled in the middle: the output is closed, the pairs not yet written are dropped.
    closing.return();
  }
  return { chunks: out.chunks, written: sink.written(), unit: sink.unit, skips: sink.skips };
}
