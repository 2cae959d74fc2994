import { describe, expect, it } from 'vitest';
import type { Finding, FindingCode, GroupSummary, RolloutSummary } from '../../analysis';
import { noRunFilters, type RunFilters, type RunSort } from '../../state';
import { findingCodeCounts, groupCodesOf, type RunRowData, visibleRows } from './filterRollouts';

// src/ui may not import src/testing (biome layer rule), so the summaries are built here, typed.
function summary(o: Partial<RolloutSummary> & Pick<RolloutSummary, 'rollout_id' | 'task_id' | 'group_id'>): RolloutSummary {
  const termination = o.termination ?? 'finished';
  const in_signal = termination === 'finished' || termination === 'budget_exhausted' || termination === 'invalid_call';
  return { file: 't.jsonl', line: 1, attempt_id: 'a-1', termination, in_signal, reward: 1, steps: 0, regressions: [], findings: [], ...o };
}

function finding(code: FindingCode): Finding {
  return { code, severity: code.startsWith('E_') ? 'error' : 'warning', segment: null, step: null, message: '' };
}

function group(group_id: string, codes: FindingCode[]): GroupSummary {
  return {
    group_id,
    rollouts: 0,
    in_signal: 0,
    unknown_termination: 0,
    mean: null,
    std: null,
    advantages: {},
    findings: codes.map(finding),
  };
}

const rollouts = [
  summary({ rollout_id: 'r-1', task_id: 'search', group_id: 'g-a', reward: 1, steps: 4 }),
  summary({ rollout_id: 'r-2', task_id: 'search', group_id: 'g-a', reward: 0, termination: 'budget_exhausted' }),
  summary({ rollout_id: 'r-3', task_id: 'search', group_id: 'g-a', reward: null, termination: 'infra_failure', in_signal: false }),
  summary({ rollout_id: 'r-4', task_id: 'dates', group_id: 'g-b', reward: 0.5, attempt_id: 'retry-7' }),
  summary({ rollout_id: 'r-5', task_id: 'dates', group_id: 'g-b', reward: 0.5, regressions: [{ step: 2, kind: 'revert', of_step: 1 }] }),
  summary({ rollout_id: 'r-6', task_id: 'dates', group_id: 'g-c', reward: 0.25, findings: [finding('E_LOGPROB_RANGE')] }),
];

const data: RunRowData = {
  rollouts,
  policies: ['v-1', 'v-1', 'v-1', 'v-1', 'v-0', null],
  advantages: [1.15, -0.58, null, 0, 0, 0],
  groupCodes: groupCodesOf([group('g-a', []), group('g-b', ['W_GROUP_MIXED_POLICY', 'W_ZERO_VARIANCE_GROUP']), group('g-c', [])]),
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
});
