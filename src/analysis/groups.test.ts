import { describe, expect, it } from 'vitest';
import { buildRollout } from '../testing/builders';
import { advantageStats, groupAdvantages, groupIdOf, STD_EPSILON, samplingKey } from './groups';

describe('advantageStats (§6)', () => {
  it('GRPO: sample std (n-1) and (r - mean) / (std + 1e-6)', () => {
    const s = advantageStats([1, 0, 0, 1]);
    expect(s.n).toBe(4);
    expect(s.mean).toBe(0.5);
    const std = Math.sqrt((4 * 0.25) / 3); // torch.std([1,0,0,1]) = 0.57735
    expect(s.std).toBeCloseTo(std, 12);
    expect(s.advantages[0]).toBeCloseTo(0.5 / (std + STD_EPSILON), 12);
    expect(s.advantages[1]).toBeCloseTo(-0.5 / (std + STD_EPSILON), 12);
    expect(s.zeroVariance).toBe(false);
  });

  it('Dr. GRPO: r - mean, no std normalisation', () => {
    const s = advantageStats([1, 0, 0, 0], false);
    expect(s.mean).toBe(0.25);
    expect(s.advantages).toEqual([0.75, -0.25, -0.25, -0.25]);
  });

  it('a singleton group: std null, advantage 0', () => {
    expect(advantageStats([0.7])).toEqual({ n: 1, mean: 0.7, std: null, advantages: [0], zeroVariance: false });
  });

  it('an empty group has no statistics', () => {
    expect(advantageStats([])).toEqual({ n: 0, mean: null, std: null, advantages: [], zeroVariance: false });
  });

  it('zero variance: advantages exactly 0 even where the float mean is off in the last bit', () => {
    const s = advantageStats([0.1, 0.1, 0.1]);
    expect(s.zeroVariance).toBe(true);
    expect(s.advantages).toEqual([0, 0, 0]);
    expect(s.std).toBe(0);
    expect(advantageStats([0.1, 0.1, 0.1], false).advantages).toEqual([0, 0, 0]);
  });
});

describe('group identity', () => {
  it('defaults to task_id@policy_version, and to task_id@ without a policy version', () => {
    expect(groupIdOf(buildRollout({ task_id: 't', policy_version: 'v2' }))).toBe('t@v2');
    expect(groupIdOf(buildRollout({ task_id: 't', policy_version: undefined }))).toBe('t@');
    expect(groupIdOf(buildRollout({ group_id: 'g-7' }))).toBe('g-7');
  });

  it('compares sampling configs regardless of key order and seed', () => {
    const a = samplingKey(buildRollout({ sampling: { temperature: 1, top_p: 0.9, seed: 1 } }));
    const b = samplingKey(buildRollout({ sampling: { top_p: 0.9, temperature: 1, seed: 2 } }));
    const c = samplingKey(buildRollout({ sampling: { top_p: 0.9, temperature: 0.7, seed: 2 } }));
    expect(a).toBe(b);
    expect(a).not.toBe(c);
  });
});

describe('groupAdvantages', () => {
  it('scores only members in the signal with a numeric reward, index-aligned, null for the rest', () => {
    const members = [
      { inSignal: true, reward: 1 },
      { inSignal: false, reward: null },
      { inSignal: true, reward: 0 },
      { inSignal: true, reward: null },
      { inSignal: true, reward: 1 },
    ];
    const { stats, perMember } = groupAdvantages(members);
    expect(stats.n).toBe(3);
    const std = Math.sqrt(((1 / 3) ** 2 * 2 + (2 / 3) ** 2) / 2);
    expect(perMember[0]).toBeCloseTo(1 / 3 / (std + STD_EPSILON), 12);
    expect(perMember[1]).toBeNull();
    expect(perMember[2]).toBeCloseTo(-2 / 3 / (std + STD_EPSILON), 12);
    expect(perMember[3]).toBeNull();
    const dr = groupAdvantages(members, false).perMember;
    expect(dr.map((a) => a === null)).toEqual([false, true, false, true, false]);
    [1 / 3, 0, -2 / 3, 0, 1 / 3].forEach((want, i) => {
      expect(dr[i] ?? 0).toBeCloseTo(want, 12);
    });
  });
});
