import { type AuditSteps, auditStepsPass, isChunked, settled } from '../../analysis';
import type { Rollout } from '../../format';
import { AUDIT_AT_ONCE_PARSED_STEPS, AUDIT_AT_ONCE_STEPS } from '../../load';
import { usePass } from '../shared/usePass';

// Once per record, whichever tab asks: a record does not change.
const passes = new WeakMap<Rollout, AuditSteps>();

/** The audit's pass over the record's steps (auditStepsPass): null while a long one is still being read, with how far it got. */
export function useAuditSteps(record: Rollout): { steps: AuditSteps | null; done: number } {
  const known = passes.get(record);
  const steps = record.steps ?? [];
  const sliced = !known && steps.length > (isChunked(steps) ? AUDIT_AT_ONCE_PARSED_STEPS : AUDIT_AT_ONCE_STEPS);
  const { value, done } = usePass(() => (known ? settled(known) : auditStepsPass(record)), sliced, [record, known]);
  if (value) passes.set(record, value);
  return { steps: value, done };
}
