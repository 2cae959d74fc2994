import type { Rollout, Step } from '../format';
import { chunksOf, isChunked } from './chunked';
import { PASS_CHUNK, type Pass, runPass } from './passes';

/**
 * One turn of a rollout: a model generation (segment) and the tool call the harness executed for it
 * (step). Either side may be missing: a final text answer has no step, an orphan step no segment.
 */
export interface Turn {
  /** 0-based index into `segments`, or null. */
  segment: number | null;
  /** 1-based step number (file order of `steps`), or null. */
  step: number | null;
}

/**
 * Joins segments and steps on `tool_call_id` into one ordered list. Segments keep their order; a step
 * with no segment is placed before the first segment whose joined step comes after it, so step order
 * is kept too. When two steps share a call id (E_DUPLICATE_EXECUTION) the segment joins the first and
 * the second stands alone.
 */
export function joinTurns(record: Rollout): Turn[] {
  const index = runPass(turnIndexPass(record));
  return Array.from({ length: index.length }, (_, i) => turnAt(index, i));
}

/**
 * `joinTurns` as typed arrays, for a rollout of any length: a turn is its place in these arrays, a
 * million turns are two Int32Arrays instead of a million objects.
 */
export interface TurnIndex {
  /** How many turns. */
  length: number;
  /** Each turn's 0-based segment, or -1. */
  segment: Int32Array;
  /** Each turn's 1-based step, or 0. */
  step: Int32Array;
  /** The turn of each step, by step number (index 0 unused). */
  turnOfStep: Int32Array;
  /** The turn of each segment. */
  turnOfSegment: Int32Array;
  /**
   * 1-based number of the first `finish` step, or null (firstFinishStep): found in the same walk over
   * the steps, which for a huge rollout parses them (docs/adr/0018), so no view walks them again for it.
   */
  finish: number | null;
}

/** One turn of an index. */
export function turnAt(index: TurnIndex, turn: number): Turn {
  const segment = index.segment[turn] ?? -1;
  const step = index.step[turn] ?? 0;
  return { segment: segment < 0 ? null : segment, step: step === 0 ? null : step };
}

/**
 * The turn index of each record whose steps are parsed when read (docs/adr/0018): the Steps view and
 * Four roles both need it, and making it parses every step (about half a second at a million).
 */
const indexed = new WeakMap<Rollout, TurnIndex>();

/** `joinTurns` as a pass (src/analysis/passes.ts): the same joins, in slices for a huge rollout. */
export function* turnIndexPass(record: Rollout): Pass<TurnIndex> {
  const known = indexed.get(record);
  if (known) return known;
  const index = yield* joinPass(record);
  if (record.steps && isChunked(record.steps)) indexed.set(record, index);
  return index;
}

function* joinPass(record: Rollout): Pass<TurnIndex> {
  const steps = record.steps ?? [];
  const segments = record.segments;
  const total = steps.length * 2 + segments.length * 2;
  let done = 0;
  // A segment joins the first step with its call id, unless an earlier segment took that step: so the
  // first segment naming an id gets the first step with it. Keyed by the segments' ids only: a million
  // steps with few generations make a small map.
  const wanting = new Map<string, number>();
  for (let i = segments.length - 1; i >= 0; i--) {
    const call = segments[i]?.tool_call_id;
    if (call != null) wanting.set(call, i);
    if (++done % PASS_CHUNK === 0) yield done / total;
  }
  const joined = new Uint8Array(steps.length + 1);
  const joins = new Int32Array(segments.length);
  let finish: number | null = null;
  // A run of steps at a time (chunksOf): a huge rollout's steps are parsed a chunk at a time.
  for (const [from, run] of chunksOf(steps)) {
    if (wanting.size === 0 && finish !== null) break;
    for (let j = 0; j < run.length && (wanting.size > 0 || finish === null); j++) {
      const i = from + j;
      const step = run[j] as Step;
      if (finish === null && step.tool === 'finish') finish = i + 1;
      const id = step.tool_call_id ?? '';
      const segment = wanting.get(id);
      if (segment !== undefined) {
        joins[segment] = i + 1;
        joined[i + 1] = 1;
        wanting.delete(id);
      }
      if (++done % PASS_CHUNK === 0) yield done / total;
    }
  }
  const segmentOf = new Int32Array(steps.length + segments.length);
  const stepOf = new Int32Array(steps.length + segments.length);
  const turnOfStep = new Int32Array(steps.length + 1);
  const turnOfSegment = new Int32Array(segments.length);
  let length = 0;
  let nextStep = 1;
  const put = (segment: number, step: number) => {
    segmentOf[length] = segment;
    stepOf[length] = step;
    if (step > 0) turnOfStep[step] = length;
    if (segment >= 0) turnOfSegment[segment] = length;
    length++;
  };
  for (let i = 0; i <= segments.length; i++) {
    // Steps no segment joined come before the first segment whose joined step follows them.
    const limit = i === segments.length ? steps.length + 1 : (joins[i] ?? 0);
    for (; nextStep < limit; nextStep++) {
      if (!joined[nextStep]) put(-1, nextStep);
      if (++done % PASS_CHUNK === 0) yield done / total;
    }
    if (i < segments.length) put(i, joins[i] ?? 0);
    if (++done % PASS_CHUNK === 0) yield done / total;
  }
  return { length, segment: segmentOf.subarray(0, length), step: stepOf.subarray(0, length), turnOfStep, turnOfSegment, finish };
}

/** 1-based number of the first `finish` step, or null. */
export function firstFinishStep(record: Pick<Rollout, 'steps'>): number | null {
  for (const [from, run] of chunksOf(record.steps ?? [])) {
    const i = run.findIndex((s) => s.tool === 'finish');
    if (i !== -1) return from + i + 1;
  }
  return null;
}

/**
 * Milliseconds since the epoch of an ISO 8601 timestamp, or null when there is none or it cannot be read
 * (the format accepts any string there; views say when one cannot be parsed).
 */
export function timestampMs(iso: string | undefined): number | null {
  if (iso === undefined) return null;
  const t = Date.parse(iso);
  return Number.isNaN(t) ? null : t;
}
