import { type AuditSteps, auditStepsPass, isChunked, settled } from '../../analysis';
import type { Rollout } from '../../format';
import { usePass } from '../shared/usePass';

/**
 * Steps up to which the audit's pass runs at once, before the first paint, as it always did (a few ms);
 * a longer rollout's pass runs in slices, the page free between them (a 1,000,000-step rollout held the
 * page 50 ms and more in one task).
 */
const SLICE_STEPS = 100_000;
/**
 * The same for steps parsed when read (docs/adr/0018): the pass parses them, about 1 µs a step, so
 * 100,000 of them would hold the page some 80 ms in one task.
 */
const SLICE_PARSED_STEPS = 20_000;

// Once per record, whichever tab asks: a record does not change.
const passes = new WeakMap<Rollout, AuditSteps>();

/** The audit's pass over the record's steps (auditStepsPass): null while a long one is still being read, with how far it got. */
export function useAuditSteps(record: Rollout): { steps: AuditSteps | null; done: number } {
  const known = passes.get(record);
  const steps = record.steps ?? [];
  const sliced = !known && steps.length > (isChunked(steps) ? SLICE_PARSED_STEPS : SLICE_STEPS);
  const { value, done } = usePass(() => (known ? settled(known) : auditStepsPass(record)), sliced, [record, known]);
  if (value) passes.set(record, value);
  return { steps: value, done };
}
