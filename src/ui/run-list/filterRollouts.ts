import {
  type FindingCode,
  findingCodes,
  type GroupSummary,
  hasFindingCode,
  isKnownTermination,
  type RolloutSummary,
  rowCounts,
  terminationRank,
} from '../../analysis';
import { lazily } from '../../format';
import type { Review } from '../../load';
import { keptByReview, type RunFilters, type RunSort, type RunSortKey } from '../../state';

/** What the run list shows per rollout, index-aligned with `rollouts`. */
export interface RunRowData {
  rollouts: readonly RolloutSummary[];
  /** `policy_version` of each record, null when it has none. */
  policies: readonly (string | null)[];
  /** Advantage under the URL's mode, null when not counted. */
  advantages: readonly (number | null)[];
  /** Codes of each group's findings, by group_id. */
  groupCodes: ReadonlyMap<string, ReadonlySet<FindingCode>>;
  /** The `rollout=` key of each row. */
  keys: readonly string[];
  /** The reviewer's marks by `rollout=` key; null until they are read, when the review filter waits. */
  reviews: ReadonlyMap<string, Pick<Review, 'verdict'>> | null;
}

export function groupCodesOf(groups: readonly GroupSummary[]): Map<string, Set<FindingCode>> {
  return new Map(groups.map((g) => [g.group_id, new Set(g.findings.map((f) => f.code))]));
}

type SortValue = string | number | null;

function sortValue(data: RunRowData, i: number, key: RunSortKey): SortValue {
  const r = data.rollouts[i];
  if (!r) return null;
  switch (key) {
    case 'file':
      return r.file;
    case 'line':
      return r.line;
    case 'rollout':
      return r.attempt_id === null ? r.rollout_id : `${r.rollout_id}\u0000${r.attempt_id}`;
    case 'task':
      return r.task_id;
    case 'group':
      return r.group_id;
    case 'policy':
      return data.policies[i] ?? null;
    case 'termination': {
      // §4 order: in-signal causes first, then the excluded ones, then anything unknown (by name).
      const rank = terminationRank(r.termination);
      return isKnownTermination(r.termination) ? `${rank}` : `${rank}:${r.termination}`;
    }
    case 'reward':
      return r.reward;
    case 'advantage':
      return data.advantages[i] ?? null;
    case 'steps':
      return r.steps;
    case 'regressions':
      return rowCounts(r).regressions;
    case 'errors':
      return rowCounts(r).errors;
    case 'warnings':
      return rowCounts(r).warnings;
    case 'mismatch':
      return r.mismatch?.max_abs ?? null;
    case 'kl':
      return r.mismatch?.kl_k3 ?? null;
  }
}

/** Built on first use: a page's first Intl object costs 40-70 ms (formatCount, src/format/counting.ts). */
const collator = lazily(() => new Intl.Collator('en', { numeric: true }));

function compare(a: SortValue, b: SortValue): number {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  return collator().compare(String(a), String(b));
}

function matches(data: RunRowData, i: number, f: RunFilters, words: readonly string[]): boolean {
  const r = data.rollouts[i];
  if (!r) return false;
  if (f.terminations.length > 0 && !f.terminations.includes(r.termination)) return false;
  if (f.signal === 'in' && !r.in_signal) return false;
  if (f.signal === 'excluded' && r.in_signal) return false;
  if (f.hasFindings && r.findings.length === 0) return false;
  if (f.hasRegressions && rowCounts(r).regressions === 0) return false;
  if (f.code !== null && !hasFindingCode(r.findings, f.code) && !data.groupCodes.get(r.group_id)?.has(f.code)) return false;
  const above = f.mismatchAbove ?? null;
  if (above !== null && !((r.mismatch?.max_abs ?? Number.NEGATIVE_INFINITY) > above)) return false;
  if (f.review !== 'all' && data.reviews && !keptByReview(data.reviews.get(data.keys[i] ?? ''), f.review)) return false;
  if (words.length > 0) {
    const ids = [r.rollout_id, r.attempt_id ?? '', r.task_id, r.group_id].join('\n').toLowerCase();
    if (!words.every((w) => ids.includes(w))) return false;
  }
  return true;
}

/**
 * The rows the run list shows, as indices into `data.rollouts`: filtered, then sorted (stable, file order
 * breaks ties). Missing values (null reward, advantage, policy) sort last in either direction.
 */
export function visibleRows(data: RunRowData, filters: RunFilters, sort: RunSort | null): number[] {
  const words = filters.text.toLowerCase().split(/\s+/).filter(Boolean);
  const rows: number[] = [];
  for (let i = 0; i < data.rollouts.length; i++) if (matches(data, i, filters, words)) rows.push(i);
  if (sort === null) return rows;
  const values = new Map(rows.map((i) => [i, sortValue(data, i, sort.key)]));
  const sign = sort.dir === 'asc' ? 1 : -1;
  return rows.sort((a, b) => {
    const va = values.get(a) ?? null;
    const vb = values.get(b) ?? null;
    if (va === null || vb === null) return va === vb ? a - b : va === null ? 1 : -1;
    return sign * compare(va, vb) || a - b;
  });
}

/**
 * Finding codes present, with how many rollouts carry each (their own or through their group); `group`
 * marks the codes that come from group findings.
 */
export function findingCodeCounts(data: RunRowData): Array<{ code: FindingCode; rollouts: number; group: boolean }> {
  const counts = new Map<FindingCode, number>();
  const fromGroups = new Set<FindingCode>();
  for (const codes of data.groupCodes.values()) for (const c of codes) fromGroups.add(c);
  for (const r of data.rollouts) {
    const codes = new Set([...findingCodes(r.findings), ...(data.groupCodes.get(r.group_id) ?? [])]);
    for (const code of codes) counts.set(code, (counts.get(code) ?? 0) + 1);
  }
  return [...counts]
    .map(([code, rollouts]) => ({ code, rollouts, group: fromGroups.has(code) }))
    .sort((a, b) => (a.code < b.code ? -1 : a.code > b.code ? 1 : 0));
}
