import { describe, expect, it } from 'vitest';
import type { FindingCode, GroupSummary, LintReport } from '../../analysis';
import { buildGroup, buildSummary } from '../../testing/builders';
import {
  arrangeGroups,
  bestAndWorst,
  buildGroupRows,
  CLUSTER_COLUMNS,
  CLUSTER_HEIGHT,
  clusterOffsets,
  GROUPS_PER_PAGE,
  POINT_STEP_PX,
  pageCount,
  rewardScale,
  shownPage,
} from './groupModel';

const rollout = (rollout_id: string, group_id: string, reward: number | null, in_signal = true) =>
  buildSummary({
    file: 't.jsonl',
    task_id: 't',
    rollout_id,
    attempt_id: null,
    group_id,
    termination: in_signal ? 'finished' : 'cancelled',
    reward,
  });
const group = (group_id: string, mean: number | null, std: number | null, codes: FindingCode[] = []) =>
  buildGroup(group_id, { mean, std, codes });

const report: LintReport = {
  summary: { lines: 5, rollouts: 5, errors: 0, warnings: 0 },
  parse_errors: [],
  rollouts: [rollout('a1', 'A', 1), rollout('b1', 'B', 0), rollout('a2', 'A', 0), rollout('a3', 'A', null, false), rollout('c1', 'C', 1)],
  groups: [
    group('A', 0.5, 0.71),
    group('B', 0, null),
    group('C', 1, 0, ['W_ZERO_VARIANCE_GROUP']),
    group('D', null, null, ['W_GROUP_MIXED_POLICY', 'W_GROUP_MIXED_ENV']),
  ],
};
const rows = buildGroupRows(report.rollouts, report.groups, ['a1', 'b1', 'a2', 'a3', 'c1'], [0.7, 0, -0.7, null, 0]);
const order = (sorted: { group: GroupSummary }[]) => sorted.map((g) => g.group.group_id);

describe('group rows', () => {
  it('gathers each group’s rollouts in file order with their advantages and keys', () => {
    const a = rows[0];
    expect(a?.members.map((m) => [m.key, m.advantage])).toEqual([
      ['a1', 0.7],
      ['a2', -0.7],
      ['a3', null],
    ]);
    expect(rows.map((g) => g.zeroVariance)).toEqual([false, false, true, false]);
    expect(rows[3]?.members).toEqual([]);
  });

  it('sorts by mean or std either way with missing values last, and by flags', () => {
    expect(order(arrangeGroups(rows, 'mean-asc', null))).toEqual(['B', 'A', 'C', 'D']);
    expect(order(arrangeGroups(rows, 'mean-desc', null))).toEqual(['C', 'A', 'B', 'D']);
    expect(order(arrangeGroups(rows, 'std-asc', null))).toEqual(['C', 'A', 'B', 'D']);
    expect(order(arrangeGroups(rows, 'std-desc', null))).toEqual(['A', 'C', 'B', 'D']);
    expect(order(arrangeGroups(rows, 'zero-variance', null))).toEqual(['C', 'A', 'B', 'D']);
    expect(order(arrangeGroups(rows, 'findings', null))).toEqual(['D', 'C', 'A', 'B']);
  });

  it('keeps only the groups with a finding code', () => {
    expect(order(arrangeGroups(rows, 'file', 'W_GROUP_MIXED_ENV'))).toEqual(['D']);
  });
});

describe('pages', () => {
  const many = Array.from({ length: 30 }, (_, i) => ({ group: group(`g${i}`, null, null) }));

  it('counts pages, never fewer than one', () => {
    expect(pageCount(0)).toBe(1);
    expect(pageCount(GROUPS_PER_PAGE)).toBe(1);
    expect(pageCount(GROUPS_PER_PAGE + 1)).toBe(2);
  });

  it('shows the chosen page in range, else the page of the selected rollout’s group', () => {
    const rowsOf = many.map((g, order) => ({ ...g, order, members: [], zeroVariance: false, codes: [] }));
    expect(shownPage(rowsOf, 99, null)).toBe(pageCount(30) - 1);
    expect(shownPage(rowsOf, null, `g${GROUPS_PER_PAGE + 1}`)).toBe(1);
    expect(shownPage(rowsOf, null, 'nope')).toBe(0);
    expect(shownPage(rowsOf, 0, `g${GROUPS_PER_PAGE + 1}`)).toBe(0);
  });
});

describe('chart layout', () => {
  it('sets apart points with the same reward, in centred columns, and leaves a lone point centred', () => {
    const s = POINT_STEP_PX;
    expect(clusterOffsets([0.5])).toEqual([{ dx: 0, dy: 0 }]);
    expect(clusterOffsets([1, 0, 1])).toEqual([
      { dx: 0, dy: -s / 2 },
      { dx: 0, dy: 0 },
      { dx: 0, dy: s / 2 },
    ]);
    const eight = clusterOffsets(Array(8).fill(1));
    expect(new Set(eight.map((o) => `${o.dx},${o.dy}`)).size).toBe(8);
    expect(eight.map((o) => o.dx)).toEqual([-s / 2, -s / 2, -s / 2, -s / 2, s / 2, s / 2, s / 2, s / 2]);
    expect(Math.max(...eight.map((o) => Math.abs(o.dy)))).toBe(((CLUSTER_HEIGHT - 1) / 2) * s);
  });

  it('keeps a cluster too big for its columns inside the same box', () => {
    const many = clusterOffsets(Array(400).fill(0));
    const halfWidth = ((CLUSTER_COLUMNS - 1) / 2) * POINT_STEP_PX;
    const halfHeight = ((CLUSTER_HEIGHT - 1) / 2) * POINT_STEP_PX;
    expect(many.every((o) => Math.abs(o.dx) <= halfWidth && Math.abs(o.dy) <= halfHeight)).toBe(true);
    expect(clusterOffsets(Array(400).fill(0))).toEqual(many);
  });

  it('puts the no-reward lane left of every reward, inside the domain', () => {
    const s = rewardScale(report.rollouts);
    expect(s.ticks).toEqual([0, 0.25, 0.5, 0.75, 1]);
    expect(s.noRewardX).toBeLessThan(s.dividerX);
    expect(s.dividerX).toBeLessThan(0);
    expect(s.domain[0]).toBeLessThan(s.noRewardX);
    expect(s.domain[1]).toBeGreaterThan(1);
  });

  it('gives a single reward value some room', () => {
    const s = rewardScale([rollout('x', 'X', 2)]);
    expect(s.ticks[0]).toBe(1.5);
    expect(s.ticks.at(-1)).toBe(2.5);
  });
});

describe('bestAndWorst', () => {
  const member = (index: number, reward: number | null) => ({
    index,
    key: `r-${index}`,
    rollout: buildSummary({ rollout_id: `r-${index}`, reward }),
    advantage: null,
  });
  it('picks the highest and lowest reward, first on a tie', () => {
    const got = bestAndWorst([member(0, 0.5), member(1, 1), member(2, null), member(3, 0), member(4, 1), member(5, 0)]);
    expect([got?.best.key, got?.worst.key]).toEqual(['r-1', 'r-3']);
  });
  it('is null when nothing contrasts', () => {
    expect(bestAndWorst([member(0, 1), member(1, 1)])).toBeNull();
    expect(bestAndWorst([member(0, 1), member(1, null)])).toBeNull();
  });
});
