import type { Finding, RolloutSummary } from '../../analysis';

// Grouping is in analysis, so the load worker can group a huge rollout's findings before the page sees them.
export { groupFindings } from '../../analysis';

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
