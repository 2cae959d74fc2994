import { type ContextChange, contextChange } from '../../../analysis';
import type { Rollout } from '../../../format';

/*
 * A rewritten context costs a token diff (up to MAX_CONTEXT_EDITS edits) to align; rows are mounted
 * again each time they scroll back into view, so each segment's change is computed once per record.
 */
const cache = new WeakMap<Rollout, Map<number, ContextChange>>();

/** `contextChange(record, segment)`, computed once per record and segment. */
export function cachedContextChange(record: Rollout, segment: number): ContextChange {
  let byRecord = cache.get(record);
  if (!byRecord) {
    byRecord = new Map();
    cache.set(record, byRecord);
  }
  let change = byRecord.get(segment);
  if (!change) {
    change = contextChange(record, segment);
    byRecord.set(segment, change);
  }
  return change;
}
