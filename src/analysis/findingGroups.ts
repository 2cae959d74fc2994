import type { Finding, FindingCode, RolloutSummary } from './types';

export interface SeverityCounts {
  errors: number;
  warnings: number;
}

/** How many findings of one code a list shows in full; the rest are counted (a rollout may have millions). */
const SHOWN_PER_CODE = 5;

export interface FindingGroup {
  code: FindingCode;
  count: number;
  /** The first SHOWN_PER_CODE findings of this code, in order. */
  shown: Finding[];
}

const grouped = new WeakMap<readonly Finding[], FindingGroup[]>();
const counted = new WeakMap<readonly Finding[], SeverityCounts>();

/** Past this many findings a rollout's groups are made by the load worker (`rememberFindingGroups`). */
export const MANY_FINDINGS = 1000;

/**
 * Findings grouped by code, in order of first appearance, each with its count and its first few: what a
 * list renders instead of one row per finding (a 1,000,000-step rollout had 1,999,982). One pass, made
 * once per findings array (a report's arrays do not change): selecting the rollout again costs nothing.
 */
export function groupFindings(findings: readonly Finding[], perCode = SHOWN_PER_CODE): FindingGroup[] {
  const known = perCode === SHOWN_PER_CODE ? grouped.get(findings) : undefined;
  if (known) return known;
  const groups = new Map<FindingCode, FindingGroup>();
  let last: FindingGroup | undefined;
  for (const f of findings) {
    // Findings of one code tend to come in runs (one per step): no lookup while the code repeats.
    let g = last?.code === f.code ? last : groups.get(f.code);
    if (!g) {
      g = { code: f.code, count: 0, shown: [] };
      groups.set(f.code, g);
    }
    g.count++;
    if (g.shown.length < perCode) g.shown.push(f);
    last = g;
  }
  const result = [...groups.values()];
  if (perCode === SHOWN_PER_CODE) grouped.set(findings, result);
  return result;
}

/**
 * Takes groups and counts made elsewhere (in the load worker) as this array's: the page's copy is a new
 * array (packed, docs/adr/0019), so it would otherwise pass over a million findings on first selection.
 */
export function rememberFindingGroups(findings: readonly Finding[], groups: FindingGroup[], counts?: SeverityCounts): void {
  grouped.set(findings, groups);
  if (counts) counted.set(findings, counts);
}

/**
 * How many of a findings array's findings are errors and warnings, counted once per array (a report's
 * arrays do not change): rows re-render on every selection, and a rollout can carry millions.
 */
export function severityCounts(findings: readonly Finding[]): SeverityCounts {
  let c = counted.get(findings);
  if (!c) {
    c = { errors: 0, warnings: 0 };
    for (const f of findings) {
      if (f.severity === 'error') c.errors++;
      else if (f.severity === 'warning') c.warnings++;
    }
    counted.set(findings, c);
  }
  return c;
}

/**
 * A run list row's counts: from its findings and regressions, or, for a row of a run index (which keeps
 * counts, not details), the counts the index recorded. The list, its filters, search and compare all
 * count through here, so a rollout has one number of regressions wherever it is shown.
 */
export function rowCounts(r: Pick<RolloutSummary, 'findings' | 'regressions' | 'indexed'>): SeverityCounts & { regressions: number } {
  if (r.indexed) return r.indexed;
  return { ...severityCounts(r.findings), regressions: r.regressions.length };
}

/** Whether any finding has this code: from the groups when they are known, else a pass that stops at the first. */
export function hasFindingCode(findings: readonly Finding[], code: FindingCode): boolean {
  const known = grouped.get(findings);
  return known ? known.some((g) => g.code === code) : findings.some((f) => f.code === code);
}

/**
 * The distinct codes of a findings array, in order of first appearance: from its groups when they are
 * known (a huge rollout's, made by the load worker), else in one pass that keeps nothing.
 */
export function findingCodes(findings: readonly Finding[]): FindingCode[] {
  const known = grouped.get(findings);
  if (known) return known.map((g) => g.code);
  const codes = new Set<FindingCode>();
  for (const f of findings) codes.add(f.code);
  return [...codes];
}
