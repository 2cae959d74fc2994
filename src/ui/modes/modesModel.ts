import type { FailureMode, FailureModesResult } from '../../analysis';

/** Modes drawn as their own line; the rest are summed into one "other modes" line. */
export const CHARTED_MODES = 5;

/** One training step of the chart: each charted mode's share of the step's rollouts, keyed `m0`...; `other`. */
export interface ModeChartRow {
  step: number;
  rollouts: number;
  [series: string]: number;
}

/** Points per line at most: a run of 1,000 steps is binned, so the chart draws in one frame, not a long task. */
export const MAX_CHART_POINTS = 200;

/**
 * The chart's rows: for each numbered training step (a rollout without one is not on the x axis), the share
 * of that step's rollouts in each of the first `CHARTED_MODES` modes and in all others together. More steps
 * than MAX_CHART_POINTS are binned, each point the share over its bin's rollouts, at its first step. Empty
 * when fewer than two steps are numbered: one point is no trend.
 */
export function modeChartRows(result: FailureModesResult): ModeChartRow[] {
  const first = result.modes[0];
  if (!first) return [];
  const numbered = first.steps.filter((s) => s.step !== null);
  if (numbered.length < 2) return [];
  // Every mode lists the same steps in the same order (FailureModes.result).
  const stepsOf = result.modes.map((m) => m.steps.filter((s) => s.step !== null));
  const per = Math.ceil(numbered.length / MAX_CHART_POINTS);
  const rows: ModeChartRow[] = [];
  for (let i = 0; i < numbered.length; i += per) {
    const bin = numbered.slice(i, i + per);
    const rollouts = bin.reduce((n, s) => n + s.rollouts, 0);
    const row: ModeChartRow = { step: bin[0]?.step as number, rollouts };
    let other = 0;
    stepsOf.forEach((steps, k) => {
      const count = steps.slice(i, i + per).reduce((n, s) => n + s.count, 0);
      const share = rollouts === 0 ? 0 : count / rollouts;
      if (k < CHARTED_MODES) row[`m${k}`] = share;
      else other += share;
    });
    if (result.modes.length > CHARTED_MODES) row.other = other;
    rows.push(row);
  }
  return rows;
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
