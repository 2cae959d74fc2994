import { describe, expect, it } from 'vitest';
import { buildGroup } from '../testing/builders';
import { finding } from './finding';
import { groupOverview } from './groupOverview';
import type { GroupSummary } from './types';

const group = (mean: number | null, over: Partial<GroupSummary> = {}): GroupSummary => ({
  ...buildGroup('g', { rollouts: 8, in_signal: 7, mean }),
  ...over,
});

describe('groupOverview', () => {
  it('counts groups, zero-variance and empty groups, rollouts in signal, and bins the means', () => {
    const o = groupOverview(
      [group(0), group(0.5), group(1, { findings: [finding('W_ZERO_VARIANCE_GROUP', 'x')] }), group(null, { rollouts: 2, in_signal: 0 })],
      2,
    );
    expect(o).toEqual({
      groups: 4,
      zeroVariance: 1,
      empty: 1,
      rollouts: 26,
      inSignal: 21,
      meanHistogram: [
        { from: 0, to: 0.5, count: 1 },
        { from: 0.5, to: 1, count: 2 },
      ],
    });
  });

  it('puts equal means in one bin and handles no groups', () => {
    expect(groupOverview([group(1), group(1)]).meanHistogram).toEqual([{ from: 1, to: 1, count: 2 }]);
    expect(groupOverview([]).meanHistogram).toEqual([]);
  });
});
