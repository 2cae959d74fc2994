import type { RegradeRow } from '../../format';

/** The grader commands of a table, in first-seen order: a table may hold several (docs/adr/0025). */
export function regradeGraders(rows: readonly RegradeRow[]): string[] {
  return [...new Set(rows.map((r) => r.grader))];
}
