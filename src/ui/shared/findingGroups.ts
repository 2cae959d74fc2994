import type { Finding, FindingCode, RolloutSummary } from '../../analysis';

/** How many findings of one code a list shows in full; the rest are counted (a rollout may have millions). */
const SHOWN_PER_CODE = 5;

export interface FindingGroup {
  code: FindingCode;
  count: number;
  /** The first SHOWN_PER_CODE findings of this code, in order. */
  shown: Finding[];
}

/**
 * Findings grouped by code, in order of first appearance, each with its count and its first few: what a
 * list renders instead of one row per finding (a 1,000,000-step rollout had 1,999,982). One pass.
 */
export function groupFindings(findings: readonly Finding[], perCode = SHOWN_PER_CODE): FindingGroup[] {
  const groups = new Map<FindingCode, FindingGroup>();
  for (const f of findings) {
    let g = groups.get(f.code);
    if (!g) {
      g = { code: f.code, count: 0, shown: [] };
      groups.set(f.code, g);
    }
    g.count++;
    if (g.shown.length < perCode) g.shown.push(f);
  }
  return [...groups.values()];
}

const counted = new WeakMap<readonly Finding[], { errors: number; warnings: number }>();

/**
 * How many of a rollout's findings are errors and warnings, counted once per findings array (a report's
 * arrays do not change): rows re-render on every selection, and a rollout can carry millions.
 */
export function severityCounts(findings: readonly Finding[]): { errors: number; warnings: number } {
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
 * counts, not details), the counts the index recorded.
 */
export function rowCounts(r: Pick<RolloutSummary, 'findings' | 'regressions' | 'indexed'>): {
  errors: number;
  warnings: number;
  regressions: number;
} {
  if (r.indexed) return r.indexed;
  return { ...severityCounts(r.findings), regressions: r.regressions.length };
}
