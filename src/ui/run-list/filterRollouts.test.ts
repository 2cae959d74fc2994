import { describe, expect, it } from 'vitest';
import type { FindingCode } from '../../analysis';
import { noRunFilters, type RunFilters, type RunSort } from '../../state';
import { buildFinding, buildGroup, buildSummary } from '../../testing/builders';
import { findingCodeCounts, groupCodesOf, type RunRowData, visibleRows } from './filterRollouts';

const summary = (o: Parameters<typeof buildSummary>[0]) => buildSummary({ file: 't.jsonl', ...o });
const finding = (code: FindingCode) => buildFinding(code);
const group = (group_id: string, codes: FindingCode[]) => buildGroup(group_id, { codes });

const rollouts = [
  summary({ rollout_id: 'r-1', task_id: 'search', group_id: 'g-a', reward: 1, steps: 4 }),
  summary({ rollout_id: 'r-2', task_id: 'search', group_id: 'g-a', reward: 0, termination: 'budget_exhausted' }),
  summary({ rollout_id: 'r-3', task_id: 'search', group_id: 'g-a', reward: null, termination: 'infra_failure' }),
  summary({ rollout_id: 'r-4', task_id: 'dates', group_id: 'g-b', reward: 0.5, attempt_id: 'retry-7' }),
  summary({ rollout_id: 'r-5', task_id: 'dates', group_id: 'g-b', reward: 0.5, regressions: [{ step: 2, kind: 'revert', of_step: 1 }] }),
  summary({ rollout_id: 'r-6', task_id: 'dates', group_id: 'g-c', reward: 0.25, findings: [finding('E_LOGPROB_RANGE')] }),
];

const data: RunRowData = {
  rollouts,
  policies: ['v-1', 'v-1', 'v-1', 'v-1', 'v-0', null],
  advantages: [1.15, -0.58, null, 0, 0, 0],
  groupCodes: groupCodesOf([group('g-a', []), group('g-b', ['W_GROUP_MIXED_POLICY', 'W_ZERO_VARIANCE_GROUP']), group('g-c', [])]),
  keys: rollouts.map((r) => r.rollout_id),
  reviews: null,
};

const ids = (rows: number[]) => rows.map((i) => data.rollouts[i]?.rollout_id);
const only = (patch: Partial<RunFilters>) => ids(visibleRows(data, { ...noRunFilters, ...patch }, null));

describe('visibleRows: filters', () => {
  it('shows every row in file order with no filter and no sort', () => {
    expect(only({})).toEqual(['r-1', 'r-2', 'r-3', 'r-4', 'r-5', 'r-6']);
  });

  it('filters by termination (any of the chosen) and by signal', () => {
    expect(only({ terminations: ['budget_exhausted', 'infra_failure'] })).toEqual(['r-2', 'r-3']);
    expect(only({ signal: 'excluded' })).toEqual(['r-3']);
    expect(only({ signal: 'in' })).toEqual(['r-1', 'r-2', 'r-4', 'r-5', 'r-6']);
  });

  it('filters by own findings, and by a code that the rollout or its group carries', () => {
    expect(only({ hasFindings: true })).toEqual(['r-6']);
    expect(only({ hasRegressions: true })).toEqual(['r-5']);
    expect(only({ code: 'E_LOGPROB_RANGE' })).toEqual(['r-6']);
    // Group findings reach every rollout of the group.
    expect(only({ code: 'W_ZERO_VARIANCE_GROUP' })).toEqual(['r-4', 'r-5']);
    expect(only({ code: 'W_GROUP_MIXED_POLICY' })).toEqual(['r-4', 'r-5']);
  });

  it('searches rollout, attempt, task and group ids, ignoring case; every word must match', () => {
    expect(only({ text: 'R-4' })).toEqual(['r-4']);
    expect(only({ text: 'retry' })).toEqual(['r-4']);
    expect(only({ text: 'dates' })).toEqual(['r-4', 'r-5', 'r-6']);
    expect(only({ text: 'g-c dates' })).toEqual(['r-6']);
    expect(only({ text: 'g-a dates' })).toEqual([]);
  });

  it('filters by the reviewer’s marks once they are read, and waits (shows every row) until then', () => {
    const reviewed: RunRowData = {
      ...data,
      reviews: new Map([
        ['r-2', { verdict: 'disagree' }],
        ['r-4', { verdict: 'agree' }],
      ]),
    };
    const by = (review: RunFilters['review']) =>
      visibleRows(reviewed, { ...noRunFilters, review }, null).map((i) => rollouts[i]?.rollout_id);
    expect(by('disagreed')).toEqual(['r-2']);
    expect(by('unreviewed')).toEqual(['r-1', 'r-3', 'r-5', 'r-6']);
    expect(only({ review: 'disagreed' })).toHaveLength(6);
  });

  it('combines filters', () => {
    expect(only({ text: 'search', signal: 'in', terminations: ['finished'] })).toEqual(['r-1']);
  });
});

describe('visibleRows: sort', () => {
  const sorted = (key: RunSort) => ids(visibleRows(data, noRunFilters, key));

  it('sorts by reward both ways, missing rewards last either way, ties in file order', () => {
    expect(sorted({ key: 'reward', dir: 'asc' })).toEqual(['r-2', 'r-6', 'r-4', 'r-5', 'r-1', 'r-3']);
    expect(sorted({ key: 'reward', dir: 'desc' })).toEqual(['r-1', 'r-4', 'r-5', 'r-6', 'r-2', 'r-3']);
  });

  it('sorts by the advantages it is given, the ones not counted last', () => {
    expect(sorted({ key: 'advantage', dir: 'desc' })).toEqual(['r-1', 'r-4', 'r-5', 'r-6', 'r-2', 'r-3']);
    expect(sorted({ key: 'advantage', dir: 'asc' })).toEqual(['r-2', 'r-4', 'r-5', 'r-6', 'r-1', 'r-3']);
  });

  it('sorts terminations in §4 order and policies with missing ones last', () => {
    expect(sorted({ key: 'termination', dir: 'asc' }).slice(-2)).toEqual(['r-2', 'r-3']);
    expect(sorted({ key: 'policy', dir: 'asc' })).toEqual(['r-5', 'r-1', 'r-2', 'r-3', 'r-4', 'r-6']);
    expect(sorted({ key: 'policy', dir: 'desc' })).toEqual(['r-1', 'r-2', 'r-3', 'r-4', 'r-5', 'r-6']);
  });

  it('sorts the filtered rows only', () => {
    expect(ids(visibleRows(data, { ...noRunFilters, text: 'dates' }, { key: 'reward', dir: 'asc' }))).toEqual(['r-6', 'r-4', 'r-5']);
  });
});

describe('findingCodeCounts', () => {
  it('counts rollouts per code and marks the group codes', () => {
    const counts = findingCodeCounts(data);
    expect(counts.find((c) => c.code === 'W_ZERO_VARIANCE_GROUP')).toEqual({ code: 'W_ZERO_VARIANCE_GROUP', rollouts: 2, group: true });
    expect(counts.find((c) => c.code === 'E_LOGPROB_RANGE')).toEqual({ code: 'E_LOGPROB_RANGE', rollouts: 1, group: false });
  });

  it('filters by "mismatch above X" on max |d| and sorts by max |d| and k3, rollouts without a training record last', () => {
    const m = (max: number, kl: number) => ({ n: 3, mean_abs: max / 2, max_abs: max, ratio_mean: 1, ratio_clip_frac: 0, kl_k3: kl });
    const rollouts = [
      summary({ rollout_id: 'a', mismatch: m(0.1, 0.02) }),
      summary({ rollout_id: 'b' }),
      summary({ rollout_id: 'c', mismatch: m(0.9, 0.001) }),
      summary({ rollout_id: 'd', mismatch: { n: 0, mean_abs: null, max_abs: null, ratio_mean: null, ratio_clip_frac: null, kl_k3: null } }),
    ];
    const d: RunRowData = {
      rollouts,
      policies: rollouts.map(() => null),
      advantages: rollouts.map(() => null),
      groupCodes: new Map(),
      keys: rollouts.map((r) => r.rollout_id),
      reviews: null,
    };
    expect(visibleRows(d, { ...noRunFilters, mismatchAbove: 0.05 }, null)).toEqual([0, 2]);
    expect(visibleRows(d, { ...noRunFilters, mismatchAbove: 0.1 }, null)).toEqual([2]);
    expect(visibleRows(d, { ...noRunFilters, mismatchAbove: 0 }, null)).toEqual([0, 2]);
    expect(visibleRows(d, noRunFilters, { key: 'mismatch', dir: 'desc' })).toEqual([2, 0, 1, 3]);
    expect(visibleRows(d, noRunFilters, { key: 'kl', dir: 'desc' })).toEqual([0, 2, 1, 3]);
  });
});
