import { type Rollout, rolloutSchema, segmentSchema, stepSchema } from '../../../format';

const ROLLOUT_KEYS = new Set(Object.keys(rolloutSchema.shape));
const SEGMENT_KEYS = new Set(Object.keys(segmentSchema.shape));
const STEP_KEYS = new Set(Object.keys(stepSchema.shape));

/**
 * Fields outside format v1 on the record, its segments and its steps, as paths (`scenario`,
 * `segments[*].note`). They are kept and shown; this only names them.
 */
export function unknownFields(record: Rollout): string[] {
  const out = new Set<string>();
  for (const k of Object.keys(record)) if (!ROLLOUT_KEYS.has(k)) out.add(k);
  for (const s of record.segments) for (const k of Object.keys(s)) if (!SEGMENT_KEYS.has(k)) out.add(`segments[*].${k}`);
  for (const s of record.steps ?? []) for (const k of Object.keys(s)) if (!STEP_KEYS.has(k)) out.add(`steps[*].${k}`);
  return [...out];
}
