import type { FailureMode, FailureModesResult } from '../../analysis';

/** Modes drawn as their own line; the rest are summed into one "other modes" line. */
export const CHARTED_MODES = 5;

/** One training step of the chart: each charted mode's share of the step's rollouts, keyed `m0`...; `other`. */
export interface ModeChartRow {
  step: number;
  rollouts: number;
  [series: string]: number;
}

/**
 * The chart's rows: for each numbered training step (a rollout without one is not on the x axis), the share
 * of that step's rollouts in each of the first `CHARTED_MODES` modes and in all others together. Empty when
 * fewer than two steps are numbered: one point is no trend.
 */
export function modeChartRows(result: FailureModesResult): ModeChartRow[] {
  const first = result.modes[0];
  if (!first) return [];
  const numbered = first.steps.filter((s) => s.step !== null);
  if (numbered.length < 2) return [];
  return numbered.map((at, i) => {
    const row: ModeChartRow = { step: at.step as number, rollouts: at.rollouts };
    let other = 0;
    result.modes.forEach((m, k) => {
      // Every mode lists the same steps in the same order (FailureModes.result).
      const share = m.steps.filter((s) => s.step !== null)[i]?.share ?? 0;
      if (k < CHARTED_MODES) row[`m${k}`] = share;
      else other += share;
    });
    if (result.modes.length > CHARTED_MODES) row.other = other;
    return row;
  });
}

/**
 * How a mode's share moved over training: its mean share in the last third of the numbered steps against
 * the first third; null without at least three numbered steps with rollouts.
 */
export function modeTrend(mode: FailureMode): { early: number; late: number } | null {
  const steps = mode.steps.filter((s) => s.step !== null && s.rollouts > 0);
  const third = Math.floor(steps.length / 3);
  if (third === 0) return null;
  const share = (part: typeof steps) => part.reduce((n, s) => n + s.count, 0) / part.reduce((n, s) => n + s.rollouts, 0);
  return { early: share(steps.slice(0, third)), late: share(steps.slice(-third)) };
}
