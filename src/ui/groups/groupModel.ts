import { type FindingCode, GROUP_FINDING_CODES, type GroupSummary, type RolloutSummary } from '../../analysis';
import type { GroupSortKey } from '../../state';

/** Groups per page: enough to compare at a glance, few enough that a page of charts and tables stays light. */
export const GROUPS_PER_PAGE = 12;

export interface GroupMember {
  /** Index into `report.rollouts`. */
  index: number;
  /** The `rollout=` value that opens it. */
  key: string;
  rollout: RolloutSummary;
  /** Under the chosen mode; null when the rollout is not counted (excluded, or no numeric reward). */
  advantage: number | null;
}

export interface GroupRow {
  group: GroupSummary;
  /** Position in first-seen order. */
  order: number;
  members: GroupMember[];
  zeroVariance: boolean;
  codes: FindingCode[];
}

/** Each group with its rollouts in file order and their advantages under one mode. */
export function buildGroupRows(
  rollouts: readonly RolloutSummary[],
  groups: readonly GroupSummary[],
  keys: readonly string[],
  advantages: readonly (number | null)[],
): GroupRow[] {
  const members = new Map<string, GroupMember[]>();
  rollouts.forEach((rollout, index) => {
    const list = members.get(rollout.group_id) ?? [];
    if (list.length === 0) members.set(rollout.group_id, list);
    list.push({ index, key: keys[index] ?? rollout.rollout_id, rollout, advantage: advantages[index] ?? null });
  });
  return groups.map((group, order) => {
    const codes = group.findings.map((f) => f.code);
    return { group, order, members: members.get(group.group_id) ?? [], zeroVariance: codes.includes('W_ZERO_VARIANCE_GROUP'), codes };
  });
}

type Key = (g: GroupRow) => number | null;

// Each sort: a value (null sorts last either way) and a direction; first-seen order breaks ties.
const SORTS: Record<GroupSortKey, { key: Key; dir: 1 | -1 }> = {
  file: { key: (g) => g.order, dir: 1 },
  'mean-asc': { key: (g) => g.group.mean, dir: 1 },
  'mean-desc': { key: (g) => g.group.mean, dir: -1 },
  'std-asc': { key: (g) => g.group.std, dir: 1 },
  'std-desc': { key: (g) => g.group.std, dir: -1 },
  'zero-variance': { key: (g) => (g.zeroVariance ? 0 : 1), dir: 1 },
  findings: { key: (g) => g.codes.length, dir: -1 },
};

export const GROUP_SORT_KEYS: readonly GroupSortKey[] = [
  'file',
  'mean-asc',
  'mean-desc',
  'std-asc',
  'std-desc',
  'zero-variance',
  'findings',
];

export const GROUP_SORT_LABELS: Record<GroupSortKey, string> = {
  file: 'File order',
  'mean-asc': 'Mean reward, low first',
  'mean-desc': 'Mean reward, high first',
  'std-asc': 'Reward std, low first',
  'std-desc': 'Reward std, high first',
  'zero-variance': 'Zero-variance first',
  findings: 'Most findings first',
};

/** The groups to list, in order: only those with `code` (when given), sorted. */
export function arrangeGroups(rows: readonly GroupRow[], sort: GroupSortKey, code: FindingCode | null): GroupRow[] {
  const { key, dir } = SORTS[sort];
  const kept = code === null ? [...rows] : rows.filter((g) => g.codes.includes(code));
  return kept.sort((a, b) => {
    const va = key(a);
    const vb = key(b);
    if (va === null || vb === null) return va === vb ? a.order - b.order : va === null ? 1 : -1;
    return dir * (va - vb) || a.order - b.order;
  });
}

export function pageCount(groups: number): number {
  return Math.max(1, Math.ceil(groups / GROUPS_PER_PAGE));
}

/**
 * The page to show: the one chosen, kept in range; before any choice (null), the page holding the
 * selected rollout's group, else the first.
 */
export function shownPage(rows: readonly GroupRow[], page: number | null, selectedGroup: string | null): number {
  if (page !== null) return Math.min(page, pageCount(rows.length) - 1);
  const at = selectedGroup === null ? -1 : rows.findIndex((g) => g.group.group_id === selectedGroup);
  return at < 0 ? 0 : Math.floor(at / GROUPS_PER_PAGE);
}

/** Point diameter plus a gap, in px: the spacing that keeps two points of one cluster apart. */
export const POINT_STEP_PX = 11;
/** Points stacked in one column of a cluster before a new column starts. */
export const CLUSTER_HEIGHT = 4;
/** Columns a cluster may take; a larger cluster fills the same box, points overlapping. */
export const CLUSTER_COLUMNS = 8;

/**
 * Where each point of a group sits around its reward: rollouts with the same reward (0/1 rewards are
 * the usual case) form a cluster of columns of up to `CLUSTER_HEIGHT` points, centred on the reward
 * and the row. A cluster too big for `CLUSTER_COLUMNS` columns is scattered over that box instead.
 * Offsets are in px and depend only on file order, so a point never moves between renders.
 */
export function clusterOffsets(xs: readonly number[]): Array<{ dx: number; dy: number }> {
  const clusters = new Map<number, number[]>();
  xs.forEach((x, i) => {
    const members = clusters.get(x) ?? [];
    if (members.length === 0) clusters.set(x, members);
    members.push(i);
  });
  const out = xs.map(() => ({ dx: 0, dy: 0 }));
  const halfWidth = ((CLUSTER_COLUMNS - 1) / 2) * POINT_STEP_PX;
  const halfHeight = ((CLUSTER_HEIGHT - 1) / 2) * POINT_STEP_PX;
  for (const members of clusters.values()) {
    const columns = Math.ceil(members.length / CLUSTER_HEIGHT);
    members.forEach((i, k) => {
      if (columns > CLUSTER_COLUMNS) {
        out[i] = { dx: (2 * spread(k, 1) - 1) * halfWidth, dy: (2 * spread(k, 2) - 1) * halfHeight };
        return;
      }
      const column = Math.floor(k / CLUSTER_HEIGHT);
      const inColumn = column < columns - 1 ? CLUSTER_HEIGHT : members.length - column * CLUSTER_HEIGHT;
      const slot = k % CLUSTER_HEIGHT;
      out[i] = { dx: (column - (columns - 1) / 2) * POINT_STEP_PX, dy: (slot - (inColumn - 1) / 2) * POINT_STEP_PX };
    });
  }
  return out;
}

/** A fixed, evenly spread value in [0, 1) for the k-th point (additive recurrence, one per axis). */
function spread(k: number, axis: 1 | 2): number {
  const step = axis === 1 ? 0.6180339887498949 : 0.7548776662466927;
  return (k * step + 0.5 * axis) % 1;
}

export interface RewardScale {
  /** Axis domain, with room on the left for the lane of rollouts without a reward. */
  domain: [number, number];
  /** Where a rollout without a numeric reward is drawn. */
  noRewardX: number;
  /** Where the line between that lane and the rewards goes. */
  dividerX: number;
  ticks: number[];
}

/** One reward axis for every page, so a point means the same on each, from all recorded rewards. */
export function rewardScale(rollouts: readonly RolloutSummary[]): RewardScale {
  const rewards = rollouts.flatMap((r) => (r.reward === null ? [] : [r.reward]));
  let lo = rewards.length ? Math.min(...rewards) : 0;
  let hi = rewards.length ? Math.max(...rewards) : 1;
  if (hi === lo) {
    lo -= 0.5;
    hi += 0.5;
  }
  const span = hi - lo;
  const ticks = Array.from({ length: 5 }, (_, i) => lo + (span * i) / 4);
  return { domain: [lo - 0.3 * span, hi + 0.08 * span], noRewardX: lo - 0.2 * span, dividerX: lo - 0.1 * span, ticks };
}

/** Short names for the group findings, as badges. */
export const GROUP_BADGES: Partial<Record<FindingCode, string>> = {
  W_ZERO_VARIANCE_GROUP: 'zero variance',
  W_GROUP_MIXED_POLICY: 'mixed policy',
  W_GROUP_MIXED_SAMPLING: 'mixed sampling',
  W_GROUP_MIXED_ENV: 'mixed env',
};

/** Counts of groups per group finding code, every group code listed even when none has it. */
export function groupCodeCounts(rows: readonly GroupRow[]): Array<{ code: FindingCode; groups: number }> {
  return GROUP_FINDING_CODES.map((code) => ({ code, groups: rows.filter((g) => g.codes.includes(code)).length }));
}

/**
 * The group's highest- and lowest-rewarded rollouts (first in file order on a tie), for "best vs worst";
 * null when fewer than two have a reward or all rewards are equal (nothing to contrast).
 */
export function bestAndWorst(members: readonly GroupMember[]): { best: GroupMember; worst: GroupMember } | null {
  let best: GroupMember | null = null;
  let worst: GroupMember | null = null;
  for (const m of members) {
    const r = m.rollout.reward;
    if (r === null) continue;
    if (best === null || r > (best.rollout.reward ?? r)) best = m;
    if (worst === null || r < (worst.rollout.reward ?? r)) worst = m;
  }
  return best && worst && best !== worst && best.rollout.reward !== worst.rollout.reward ? { best, worst } : null;
}
