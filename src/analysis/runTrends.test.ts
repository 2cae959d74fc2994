import { describe, expect, it } from 'vitest';
import { measures, runTrends, type TrendColumns, totalsOver } from './runTrends';

interface R {
  step: number | null;
  task?: number;
  term?: number;
  signal?: boolean;
  reward: number | null;
  group: number;
  gen?: number;
  trunc?: boolean;
  regr?: number;
  codes?: number;
  mm?: number | null;
}

function columns(rows: R[]): TrendColumns {
  const n = rows.length;
  return {
    n,
    step: Int32Array.from(rows, (r) => r.step ?? -1),
    task: { codes: Uint32Array.from(rows, (r) => r.task ?? 0) },
    termination: { codes: Uint32Array.from(rows, (r) => r.term ?? 0), values: ['finished', 'infra_failure'] },
    group: { codes: Uint32Array.from(rows, (r) => r.group), values: [...new Set(rows.map((r) => r.group))] },
    inSignal: Uint8Array.from(rows, (r) => (r.signal === false ? 0 : 1)),
    reward: Float64Array.from(rows, (r) => r.reward ?? Number.NaN),
    generated: Uint32Array.from(rows, (r) => r.gen ?? 0),
    truncated: Uint8Array.from(rows, (r) => (r.trunc ? 1 : 0)),
    regressions: Uint32Array.from(rows, (r) => r.regr ?? 0),
    // A row's bit mask of the two codes is the id of its set here: 0 none, 1 the first, 2 the second, 3 both.
    codeSet: Uint32Array.from(rows, (r) => r.codes ?? 0),
    codeSets: [[], [0], [1], [0, 1]],
    codeNames: ['W_HIT_MAX_TOKENS', 'E_REWARD_MISSING'],
    mismatchMax: Float32Array.from(rows, (r) => r.mm ?? Number.NaN),
    klK3: new Float32Array(n).fill(Number.NaN),
  };
}

const RUN: R[] = [
  // step 0: group 0 rewards 0, 1 (varies); group 1 rewards 1, 1 (zero variance); an excluded rollout.
  { step: 0, reward: 0, group: 0, gen: 10, trunc: true, codes: 0b01 },
  { step: 0, reward: 1, group: 0, gen: 30, regr: 2, mm: 0.5 },
  { step: 0, reward: 1, group: 1, gen: 20, codes: 0b11 },
  { step: 0, reward: 1, group: 1, gen: 20, task: 1 },
  { step: 0, reward: null, group: 1, signal: false, term: 1, gen: 0 },
  // step 2 (step 1 has nothing): one group of one reward.
  { step: 2, reward: 0.5, group: 2, gen: 40, task: 1, mm: 0.25 },
  { step: null, reward: 1, group: 3 },
];

describe('runTrends', () => {
  it('sums each training step in one pass: rewards in the signal, terminations, zero-variance groups, lengths, codes', () => {
    const t = runTrends(columns(RUN));
    expect(t.points.map((p) => p.step)).toEqual([0, 2]);
    expect(t.withoutStep).toBe(1);
    expect(t.matched).toBe(7);
    const [s0, s2] = t.points;
    expect(s0).toMatchObject({
      rollouts: 5,
      inSignal: 4,
      rewardN: 4,
      rewardSum: 3,
      terminations: [4, 1],
      groups: 2,
      zeroVarianceGroups: 1,
    });
    expect(s0).toMatchObject({ generatedSum: 80, truncated: 1, regressed: 1, codeCounts: [2, 1], mismatchN: 1, mismatchMaxSum: 0.5 });
    const m = measures(s0 ?? ({} as never));
    expect(m.rewardMean).toBe(0.75);
    // Sample std (n - 1) of 0, 1, 1, 1.
    expect(m.rewardStd).toBeCloseTo(0.5, 12);
    expect(m.zeroVarianceShare).toBe(0.5);
    expect(m.signalShare).toBe(0.8);
    expect(m.generatedMean).toBe(16);
    expect(s2).toMatchObject({ rollouts: 1, groups: 0, rewardN: 1 });
    expect(measures(s2 ?? ({} as never)).rewardStd).toBeNull();
  });

  it('re-aggregates under a filter: tasks and terminations kept, a group judged on its kept rollouts', () => {
    const byTask = runTrends(columns(RUN), { tasks: new Set([0]), terminations: null });
    expect(byTask.points.map((p) => p.step)).toEqual([0]);
    // Group 1 keeps one rollout with task 0: no longer a group of two rewards.
    expect(byTask.points[0]).toMatchObject({ rollouts: 4, groups: 1, zeroVarianceGroups: 0 });
    const finished = runTrends(columns(RUN), { tasks: null, terminations: new Set([0]) });
    expect(finished.points[0]?.terminations).toEqual([4, 0]);
    expect(runTrends(columns(RUN), { tasks: new Set([7]), terminations: null }).points).toEqual([]);
  });

  it('adds steps into range totals for a comparison', () => {
    const { points } = runTrends(columns(RUN));
    const all = totalsOver(points, 0, 2);
    expect(all.rollouts).toBe(6);
    expect(measures(all).rewardMean).toBeCloseTo(3.5 / 5, 12);
    expect(totalsOver(points, 1, 1).rollouts).toBe(0);
    expect(measures(totalsOver(points, 1, 1)).rewardMean).toBeNull();
  });
});
