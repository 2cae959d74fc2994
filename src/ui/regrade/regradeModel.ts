import type { RegradeEffect, StepRewards } from '../../analysis';
import { formatAdvantage, formatReward } from '../shared/format';

/** "no_artifact 29, timeout 1", largest first; "none" without errors. */
export function errorsText(errors: RegradeEffect['errors']): string {
  if (errors.size === 0) return 'none';
  return [...errors]
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .map(([kind, n]) => `${kind} ${n}`)
    .join(', ');
}

/** A verdict and its reward in one cell: "fail · 0.0"; "—" for a verdict not recorded. */
export function verdictCell(verdict: string | null, reward: number | null): string {
  return `${verdict ?? '—'} · ${reward === null ? 'null' : formatReward(reward)}`;
}

/** An advantage or "not counted" (out of the signal). */
export const advantageCell = (a: number | null): string => (a === null ? 'not counted' : formatAdvantage(a));

/** Flips that are neither fail → pass nor pass → fail: another verdict pair, or the reward alone. */
export const otherFlips = (e: RegradeEffect): number => e.flips.length - e.failToPass - e.passToFail;

/** The chart's rows: one per training step, the old and the new in-signal reward mean. */
export function trendRows(trend: readonly StepRewards[]): { step: number; old: number | null; new: number | null }[] {
  return trend.map((p) => ({ step: p.step, old: p.oldMean, new: p.newMean }));
}

/** Steps whose in-signal reward mean the regrade changed. */
export const changedSteps = (trend: readonly StepRewards[]): number => trend.filter((p) => p.oldMean !== p.newMean).length;
