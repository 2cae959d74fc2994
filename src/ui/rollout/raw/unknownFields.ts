import { chunksOf, type Pass, runPass } from '../../../analysis';
import { type Rollout, v1Schema } from '../../../format';

/**
 * Fields outside format v1 on the record, its segments and its steps, as paths (`scenario`,
 * `segments[*].note`). They are kept and shown; this only names them.
 */
export function unknownFields(record: Rollout): string[] {
  return runPass(unknownFieldsPass(record));
}

/** `unknownFields` as a pass, a run of segments or steps at a time: a huge record's steps are parsed as read. */
export function* unknownFieldsPass(record: Rollout): Pass<string[]> {
  const v1 = v1Schema();
  const rolloutKeys = new Set(Object.keys(v1.rollout.shape));
  const segmentKeys = new Set(Object.keys(v1.segment.shape));
  const stepKeys = new Set(Object.keys(v1.step.shape));
  const out = new Set<string>();
  for (const k of Object.keys(record)) if (!rolloutKeys.has(k)) out.add(k);
  const segments = record.segments.length;
  const total = segments + (record.steps?.length ?? 0) || 1;
  for (const [from, run] of chunksOf(record.segments)) {
    for (const s of run) for (const k of Object.keys(s)) if (!segmentKeys.has(k)) out.add(`segments[*].${k}`);
    yield (from + run.length) / total;
  }
  for (const [from, run] of chunksOf(record.steps ?? [])) {
    for (const s of run) for (const k of Object.keys(s)) if (!stepKeys.has(k)) out.add(`steps[*].${k}`);
    yield (segments + from + run.length) / total;
  }
  return [...out];
}
