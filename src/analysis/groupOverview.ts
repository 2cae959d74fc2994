import type { GroupSummary } from './types';

export interface GroupOverview {
  groups: number;
  /** Groups with two or more rollouts in the signal, all with the same reward. */
  zeroVariance: number;
  /** Groups with no rollout that can be scored. */
  empty: number;
  rollouts: number;
  inSignal: number;
  /** Histogram of group means over [min, max] of the means, `bins` equal bins. */
  meanHistogram: { from: number; to: number; count: number }[];
}

/** Summary across groups for the groups view: how much of the data can teach the policy anything. */
export function groupOverview(groups: readonly GroupSummary[], bins = 10): GroupOverview {
  // Means of equal rewards summed in another order differ in the last bits; round so they share a bin.
  const means = groups.flatMap((g) => (g.mean === null ? [] : [Math.round(g.mean * 1e9) / 1e9]));
  const lo = means.length ? Math.min(...means) : 0;
  const hi = means.length ? Math.max(...means) : 0;
  const width = hi > lo ? (hi - lo) / bins : 1;
  const meanHistogram = means.length
    ? Array.from({ length: hi > lo ? bins : 1 }, (_, i) => ({ from: lo + i * width, to: hi > lo ? lo + (i + 1) * width : hi, count: 0 }))
    : [];
  for (const m of means) {
    const i = hi > lo ? Math.min(bins - 1, Math.floor((m - lo) / width)) : 0;
    const bin = meanHistogram[i];
    if (bin) bin.count++;
  }
  return {
    groups: groups.length,
    zeroVariance: groups.filter((g) => g.findings.some((f) => f.code === 'W_ZERO_VARIANCE_GROUP')).length,
    empty: groups.length - means.length,
    rollouts: groups.reduce((a, g) => a + g.rollouts, 0),
    inSignal: groups.reduce((a, g) => a + g.in_signal, 0),
    meanHistogram,
  };
}
