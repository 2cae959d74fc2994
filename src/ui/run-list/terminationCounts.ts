import type { RolloutSummary } from '../../analysis';

/** Rollouts per termination, in first-seen order, and how many are in the policy signal. */
export function terminationCounts(rollouts: readonly RolloutSummary[]): { counts: Array<[string, number]>; inSignal: number } {
  const counts = new Map<string, number>();
  let inSignal = 0;
  for (const r of rollouts) {
    counts.set(r.termination, (counts.get(r.termination) ?? 0) + 1);
    if (r.in_signal) inSignal++;
  }
  return { counts: [...counts], inSignal };
}
