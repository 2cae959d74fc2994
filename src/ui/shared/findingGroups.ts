import { type RolloutSummary, severityCounts } from '../../analysis';

// Grouping and counting are in analysis, so the load worker can do both for a huge rollout's findings
// before the page sees them.
export { groupFindings, severityCounts } from '../../analysis';

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
