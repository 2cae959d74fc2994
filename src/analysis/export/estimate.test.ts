import { describe, expect, it } from 'vitest';
import { buildSummary } from '../../testing/builders';
import { exportEstimate } from './estimate';

const row = (group_id: string, reward: number | null, over: Parameters<typeof buildSummary>[0] = {}, policy: string | null = 'v-1') => ({
  summary: buildSummary({ group_id, reward, ...over }),
  policy,
});

describe('exportEstimate', () => {
  it('counts records, rewarded rollouts in the signal, and groups with a reward gap of one task and policy', () => {
    expect(
      exportEstimate([
        row('g', 1),
        row('g', 0),
        row('h', 1),
        row('h', 1),
        // Excluded: neither a conversation nor part of its group's pair.
        row('i', 1, { termination: 'infra_failure' }),
        row('i', 0),
        row('j', 1, {}, 'v-1'),
        row('j', 0, {}, 'v-2'),
        row('k', null),
      ]),
    ).toEqual({ records: 9, conversations: 4, pairs: 1 });
    expect(exportEstimate([])).toEqual({ records: 0, conversations: 0, pairs: 0 });
  });
});
