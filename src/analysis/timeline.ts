import type { Rollout } from '../format';

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
  const steps = record.steps ?? [];
  const byCall = new Map<string, number>();
  steps.forEach((s, i) => {
    if (!byCall.has(s.tool_call_id)) byCall.set(s.tool_call_id, i + 1);
  });
  // Decide every join first, so a step is either joined or stands alone, never both.
  const joined = new Set<number>();
  const joins = record.segments.map((seg) => {
    const step = seg.tool_call_id != null ? byCall.get(seg.tool_call_id) : undefined;
    if (step === undefined || joined.has(step)) return null;
    joined.add(step);
    return step;
  });
  const turns: Turn[] = [];
  let nextStep = 1;
  const flushStepsBefore = (limit: number) => {
    for (; nextStep < limit; nextStep++) if (!joined.has(nextStep)) turns.push({ segment: null, step: nextStep });
  };
  joins.forEach((step, i) => {
    if (step !== null) flushStepsBefore(step);
    turns.push({ segment: i, step });
  });
  flushStepsBefore(steps.length + 1);
  return turns;
}

/** 1-based number of the first `finish` step, or null. */
export function firstFinishStep(record: Rollout): number | null {
  const i = (record.steps ?? []).findIndex((s) => s.tool === 'finish');
  return i === -1 ? null : i + 1;
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
