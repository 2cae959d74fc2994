import { useEffect, useState } from 'react';
import { type AuditSteps, auditSteps, emptyAuditSteps, scanAuditSteps } from '../../analysis';
import type { Rollout } from '../../format';

/**
 * Steps the audit's pass reads in one task (a few ms). A rollout of up to this many steps is read at
 * once, before the first paint, as it always was; a longer one in tasks of this many, the page free
 * between them (a 1,000,000-step rollout held the page 50 ms and more in one).
 */
const SLICE_STEPS = 100_000;

// Once per record, whichever tab asks: a record does not change.
const passes = new WeakMap<Rollout, AuditSteps>();

/** The audit's pass over the record's steps (auditSteps): null while a long one is still being read, with how far it got. */
export function useAuditSteps(record: Rollout): { steps: AuditSteps | null; done: number } {
  let known = passes.get(record) ?? null;
  if (!known && (record.steps?.length ?? 0) <= SLICE_STEPS) {
    known = auditSteps(record);
    passes.set(record, known);
  }
  const [progress, setProgress] = useState<{ record: Rollout; done: number } | null>(null);
  useEffect(() => {
    if (known) return;
    const steps = record.steps ?? [];
    const into = emptyAuditSteps();
    let at = 0;
    // A message to itself, not setTimeout: nested timeouts are clamped to 4 ms each.
    const channel = new MessageChannel();
    channel.port1.onmessage = () => {
      scanAuditSteps(steps, into, at, at + SLICE_STEPS);
      at += SLICE_STEPS;
      if (at >= steps.length) passes.set(record, into);
      else channel.port2.postMessage(null);
      setProgress({ record, done: Math.min(1, at / steps.length) });
    };
    channel.port2.postMessage(null);
    return () => channel.port1.close();
  }, [record, known]);
  return { steps: known, done: progress?.record === record ? progress.done : 0 };
}
