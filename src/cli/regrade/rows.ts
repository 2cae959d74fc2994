import { type RegradeRow, regradeRowOf } from '../../format';

/** Why a rollout has no new verdict: the kinds this command writes in a row's `error_kind`. */
const ERROR_KINDS = ['no_artifact', 'digest_mismatch', 'unsafe_name', 'timeout', 'crash', 'garbage', 'spawn'] as const;
export type ErrorKind = (typeof ERROR_KINDS)[number];

/**
 * A journal line read back, or null: the journal is a file on disk, so each line is checked, not trusted,
 * by the one checker the page and the analysis read regrade tables with (`regradeRowOf`), and its error
 * kind must be one this command writes.
 */
export function rowFrom(v: unknown): RegradeRow | null {
  let row: RegradeRow;
  try {
    row = regradeRowOf(v, 'row');
  } catch {
    return null;
  }
  return row.error_kind === null || ERROR_KINDS.some((k) => k === row.error_kind) ? row : null;
}

export interface RegradeSummary {
  graded: number;
  /** Rows without a new verdict, by `error_kind`. */
  errors: Map<string, number>;
  /** `old → new` verdict (or reward, when either verdict is missing) pairs that differ, with counts. */
  flips: Map<string, number>;
  agree: number;
}

/** Counts of the rows of one regrade: graded, errors by kind, and verdict flips old → new. */
export function summarizeRows(rows: readonly RegradeRow[]): RegradeSummary {
  const s: RegradeSummary = { graded: 0, errors: new Map(), flips: new Map(), agree: 0 };
  for (const r of rows) {
    if (r.error_kind !== null) {
      s.errors.set(r.error_kind, (s.errors.get(r.error_kind) ?? 0) + 1);
      continue;
    }
    s.graded++;
    const byVerdict = r.old_verdict !== null && r.new_verdict !== null;
    const from = byVerdict ? r.old_verdict : `reward ${r.old_reward ?? 'null'}`;
    const to = byVerdict ? r.new_verdict : `reward ${r.new_reward}`;
    if (from === to) s.agree++;
    else s.flips.set(`${from} → ${to}`, (s.flips.get(`${from} → ${to}`) ?? 0) + 1);
  }
  return s;
}

/** The summary as stderr lines. */
export function summaryText(s: RegradeSummary, skipped: number, seconds: number): string {
  const n = s.graded + [...s.errors.values()].reduce((a, b) => a + b, 0);
  const lines = [
    `${n} rollouts: ${s.graded} graded, ${n - s.graded} errors${skipped > 0 ? ` (${skipped} already in the journal, not run again)` : ''}; ${seconds.toFixed(1)} s`,
  ];
  if (s.errors.size > 0) lines.push(`errors: ${[...s.errors].map(([k, c]) => `${k} ${c}`).join(', ')}`);
  lines.push(
    `agree with the stored verdict: ${s.agree}; flips: ${s.flips.size === 0 ? 'none' : [...s.flips].map(([k, c]) => `${k} ${c}`).join(', ')}`,
  );
  return `${lines.join('\n')}\n`;
}
