import { type CheckOptions, type RolloutFacts, type RolloutSummary, rolloutFacts, summarizeRollout } from '../analysis';
import { forEachLine, type LineResult, type LineRun, type ParseError, parseLine } from '../format';
import { type CompactRollout, compactRollout, packCompact, transferables } from './compact';

/*
 * The unit of parallel parsing (docs/adr/0008). Lines of a v1 file are independent of each other, so the
 * loader hands runs of them, unsplit, to other threads, and `parseBlock` turns a run into what the load
 * state keeps: for each rollout its summary, the facts its group needs, and its compact record. That is
 * all a parse worker sends back; the record itself never leaves the thread that parsed it.
 */

/** Consecutive lines of one file (see `LineRun`). */
export interface LineBlock extends LineRun {
  file: string;
}

/** A line, parsed, checked and compacted: what the load state keeps of it. */
export type ProcessedLine =
  | { kind: 'rollout'; summary: RolloutSummary; facts: RolloutFacts; compact: CompactRollout }
  | { kind: 'error'; value: ParseError };

/** Does the per-rollout work on a parsed line: checks, group facts, compaction. */
export function processResult(result: LineResult, options: CheckOptions): ProcessedLine {
  if (result.kind === 'error') return result;
  const { record } = result.value;
  return {
    kind: 'rollout',
    summary: summarizeRollout(result.value, options),
    facts: rolloutFacts(record),
    compact: compactRollout(record),
  };
}

/**
 * Parses each line of a block as v1 (`parseLine`, as the line parser would) and processes it; the
 * block's compact records share one buffer (`packCompact`).
 */
export function parseBlock(block: LineBlock, options: CheckOptions): ProcessedLine[] {
  const out: ProcessedLine[] = [];
  forEachLine(block, (bytes, line) => {
    const result = parseLine(bytes, line, block.file);
    if (result) out.push(processResult(result, options));
  });
  packCompact(out.flatMap((l) => (l.kind === 'rollout' ? [l.compact] : [])));
  return out;
}

/** The buffers of processed lines, to transfer rather than copy between threads. */
export function processedTransferables(lines: readonly ProcessedLine[]): ArrayBuffer[] {
  return transferables(...lines.flatMap((l) => (l.kind === 'rollout' ? [l.compact] : [])));
}

/** Bytes of a run of lines. */
export function runBytes(run: LineRun): number {
  let n = 0;
  for (const p of run.parts) n += p.byteLength;
  return n;
}

/** Consecutive runs as one (the loader sends a few large blocks rather than many small ones). */
export function joinRuns(file: string, runs: readonly LineRun[]): LineBlock | null {
  const first = runs[0];
  if (!first) return null;
  let count = 0;
  for (const r of runs) count += r.count;
  // Where the lines end: each run's offsets, shifted to the block's parts joined.
  const ends: number[] = [];
  let base = 0;
  for (const r of runs) {
    for (const e of r.ends) ends.push(base + e);
    base += runBytes(r);
  }
  return { file, firstLine: first.firstLine, count, parts: runs.flatMap((r) => r.parts), ends };
}

/** Parses blocks somewhere else (worker threads): results come back in any order, each block whole. */
export interface ParsePool {
  /** The block's buffers are given away (transferred): the caller must not use them again. */
  parse(block: LineBlock, options: CheckOptions): Promise<ProcessedLine[]>;
  close(): void;
}
