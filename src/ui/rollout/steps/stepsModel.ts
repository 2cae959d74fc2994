import {
  type Finding,
  findingPlaces,
  PASS_CHUNK,
  type Pass,
  type Regression,
  type RolloutSummary,
  runPass,
  turnIndexPass,
  within,
} from '../../../analysis';
import type { Rollout } from '../../../format';

export interface TurnItem {
  kind: 'turn';
  /** Stable React key. */
  key: string;
  /** 0-based segment index, or null for a step with no generation. */
  segment: number | null;
  /** 1-based step number, or null for a generation the harness did not execute. */
  step: number | null;
  regressions: Regression[];
  /** Later steps that revert this one. */
  revertedBy: number[];
  findings: Finding[];
}

/** The rows of the steps view, top to bottom: the task, one per turn, how it ended, the grader. */
export type StepItem = { kind: 'task' } | TurnItem | { kind: 'end' } | { kind: 'grader' };

/**
 * The rows of the steps view, made when asked for: a million-step rollout is two typed arrays of turns
 * and its findings sorted by row, not a million row objects (issue 18).
 */
export interface StepsModel {
  /** Rows in all: the task, one per turn, the end and the grader. */
  count: number;
  /** The row at an index (the same object each time it is asked for). */
  itemAt(row: number): StepItem | undefined;
  /** A row's kind and React key, without making the row (the virtualizer asks for every row of a page). */
  kindAt(row: number): StepItem['kind'] | undefined;
  keyAt(row: number): string;
  /** The row of a step number, or undefined when the rollout has no such step. */
  rowOfStep(step: number): number | undefined;
  /** The rollout's steps are numbered 1..stepCount; each has a row. */
  stepCount: number;
  /** Findings about the whole rollout, or about a segment or step that has no row. */
  rolloutFindings: Finding[];
  /** 1-based number of the first `finish` step, or null (the end row says where it was). */
  finish: number | null;
}

type Summary = Pick<RolloutSummary, 'findings' | 'regressions'>;

/** A packed column's -1 is null. */
const nullable = (v: number): number | null => (v < 0 ? null : v);

/** The steps view's rows at once (small rollouts, tests). */
export function stepsModel(record: Rollout, summary: Summary): StepsModel {
  return runPass(stepsModelPass(record, summary));
}

/** `stepsModel` as a pass (src/analysis/passes.ts), for a huge rollout's page to run in slices. */
export function* stepsModelPass(record: Rollout, summary: Summary): Pass<StepsModel> {
  const index = yield* within(turnIndexPass(record), 0, 0.7);
  const stepCount = record.steps?.length ?? 0;
  const segmentCount = record.segments.length;
  const { findings, regressions } = summary;
  const rowOf = (s: number | null, t: number | null): number => {
    if (s !== null && Number.isInteger(s) && s >= 0 && s < segmentCount) return index.turnOfSegment[s] ?? -1;
    if (t !== null && Number.isInteger(t) && t >= 1 && t <= stepCount) return index.turnOfStep[t] ?? -1;
    return -1;
  };
  // A huge rollout's findings are packed columns (docs/adr/0019): their places are read there, and a
  // finding is made only when it has no row.
  const places = findingPlaces(findings);
  const turnAt = places
    ? (i: number) => rowOf(nullable(places.segment[i] as number), nullable(places.step[i] as number))
    : (i: number) => {
        const f = findings[i] as Finding;
        return rowOf(f.segment, f.step);
      };
  // Findings sorted by turn, in their own order within one: a count per turn, then each in its place.
  const turnOf = new Int32Array(findings.length);
  const starts = new Int32Array(index.length + 1);
  const rolloutFindings: Finding[] = [];
  for (let i = 0; i < findings.length; i++) {
    const turn = turnAt(i);
    turnOf[i] = turn;
    if (turn < 0) rolloutFindings.push(findings[i] as Finding);
    else starts[turn + 1] = (starts[turn + 1] ?? 0) + 1;
    if (i % PASS_CHUNK === 0) yield 0.7 + (0.1 * i) / findings.length;
  }
  for (let t = 0; t < index.length; t++) starts[t + 1] = (starts[t + 1] ?? 0) + (starts[t] ?? 0);
  const fill = starts.slice(0, index.length);
  const sorted = new Int32Array(findings.length - rolloutFindings.length);
  for (let i = 0; i < findings.length; i++) {
    const turn = turnOf[i] ?? -1;
    if (turn >= 0) sorted[(fill[turn] as number)++] = i;
    if (i % PASS_CHUNK === 0) yield 0.8 + (0.1 * i) / findings.length;
  }
  const regressionsOf = new Map<number, Regression[]>();
  const revertedBy = new Map<number, number[]>();
  for (let i = 0; i < regressions.length; i++) {
    const r = regressions[i] as Regression;
    regressionsOf.set(r.step, [...(regressionsOf.get(r.step) ?? []), r]);
    if (r.kind === 'revert') revertedBy.set(r.of_step, [...(revertedBy.get(r.of_step) ?? []), r.step]);
    if (i % PASS_CHUNK === 0) yield 0.9 + (0.1 * i) / regressions.length;
  }

  const count = index.length + 3;
  const made = new Map<number, StepItem>();
  const fixed: StepItem[] = [{ kind: 'task' }, { kind: 'end' }, { kind: 'grader' }];
  const itemAt = (row: number): StepItem | undefined => {
    if (!Number.isInteger(row) || row < 0 || row >= count) return undefined;
    if (row === 0) return fixed[0];
    if (row >= count - 2) return fixed[row - count + 3];
    const known = made.get(row);
    if (known) return known;
    const turn = row - 1;
    const segment = index.segment[turn] ?? -1;
    const step = index.step[turn] ?? 0;
    const item: TurnItem = {
      kind: 'turn',
      key: keyAt(row),
      segment: segment >= 0 ? segment : null,
      step: step > 0 ? step : null,
      regressions: step > 0 ? (regressionsOf.get(step) ?? []) : [],
      revertedBy: step > 0 ? (revertedBy.get(step) ?? []) : [],
      findings: Array.from(sorted.subarray(starts[turn], starts[turn + 1]), (i) => findings[i] as Finding),
    };
    made.set(row, item);
    return item;
  };
  const kindAt = (row: number): StepItem['kind'] | undefined =>
    !Number.isInteger(row) || row < 0 || row >= count
      ? undefined
      : row === 0
        ? 'task'
        : row === count - 2
          ? 'end'
          : row === count - 1
            ? 'grader'
            : 'turn';
  const keyAt = (row: number): string => {
    const kind = kindAt(row);
    if (kind !== 'turn') return kind ?? String(row);
    const segment = index.segment[row - 1] ?? -1;
    return segment >= 0 ? `s${segment}` : `t${index.step[row - 1] ?? 0}`;
  };
  const rowOfStep = (step: number) =>
    Number.isInteger(step) && step >= 1 && step <= stepCount ? 1 + (index.turnOfStep[step] ?? 0) : undefined;
  return { count, itemAt, kindAt, keyAt, rowOfStep, stepCount, rolloutFindings, finish: index.finish };
}
