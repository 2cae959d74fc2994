import { describe, expect, it } from 'vitest';
import type { RunTrends, StepPoint } from '../../analysis';
import { chartRows, compareRows, rowOf, topCodes } from './runModel';

const point = (step: number, over: Partial<StepPoint> = {}): StepPoint => ({
  step,
  rollouts: 4,
  inSignal: 4,
  rewardN: 4,
  rewardSum: 2,
  rewardSumSq: 2,
  terminations: [3, 1],
  groups: 2,
  zeroVarianceGroups: 1,
  generatedSum: 40,
  truncated: 1,
  regressed: 0,
  codeCounts: [0, 2],
  mismatchN: 0,
  mismatchMaxSum: 0,
  klN: 0,
  klSum: 0,
  ...over,
});

const trends: RunTrends = {
  points: [point(0), point(1, { rewardSum: 4, rewardSumSq: 4, codeCounts: [1, 0] })],
  withoutStep: 0,
  matched: 8,
};

describe('run page model', () => {
  it('makes one chart row per step: measures, the ±1 std band, termination and code shares', () => {
    const [a, b] = chartRows(trends);
    expect(a).toMatchObject({
      step: 0,
      stepTo: 0,
      rewardMean: 0.5,
      t0: 0.75,
      t1: 0.25,
      c1: 0.5,
      truncatedShare: 0.25,
      mismatchMaxMean: null,
    });
    const std = Math.sqrt((2 - 4 * 0.25) / 3);
    // 0.5 ± 0.577 would reach below 0: the band stops at the reward span, at least 0 to 1 (issue 31).
    expect(0.5 - std).toBeLessThan(0);
    expect(a?.band).toEqual([0, 1]);
    expect(b?.band).toEqual([1, 1]);
  });

  it('sums a run of more steps than a chart draws into bins of consecutive steps, over all their rollouts', () => {
    const many: RunTrends = { points: Array.from({ length: 10 }, (_, i) => point(i * 2, { rewardSum: i })), withoutStep: 0, matched: 40 };
    const rows = chartRows(many, 4);
    // Steps 0..18 in bins of 5: [0-4], [5-9], [10-14], [15-18].
    expect(rows.map((r) => [r.step, r.stepTo, r.rollouts])).toEqual([
      [0, 4, 12],
      [5, 9, 8],
      [10, 14, 12],
      [15, 18, 8],
    ]);
    expect(rows[0]?.rewardMean).toBe((0 + 1 + 2) / 12);
    expect(rowOf(rows, 7)?.step).toBe(5);
    expect(rowOf(rows, 99)?.step).toBe(15);
    expect(chartRows(many, 10)).toHaveLength(10);
  });

  it('charts the finding codes the steps have, most frequent first', () => {
    expect(topCodes(trends, ['A', 'B', 'C'])).toEqual([
      { index: 1, code: 'B', rollouts: 2 },
      { index: 0, code: 'A', rollouts: 1 },
    ]);
  });

  it('compares two ranges measure by measure, with the change from the first to the second', () => {
    const rows = compareRows(point(0), point(1, { rewardSum: 4, rewardSumSq: 4, rollouts: 6 }));
    expect(rows.find((r) => r.label === 'Reward mean')).toEqual({ label: 'Reward mean', a: 0.5, b: 1, delta: 0.5, unit: 'number' });
    expect(rows.find((r) => r.label === 'Rollouts')?.delta).toBe(2);
    expect(rows.find((r) => r.label === 'KL k3 (mean)')?.delta).toBeNull();
  });
});
