/** Why a rollout has no new verdict. */
const ERROR_KINDS = ['no_artifact', 'digest_mismatch', 'unsafe_name', 'timeout', 'crash', 'garbage', 'spawn'] as const;
export type ErrorKind = (typeof ERROR_KINDS)[number];

/** One rollout regraded: a row of DIR/regrade.parquet and a line of its journal. */
export interface RegradeRow {
  file: string;
  line: number;
  rollout_id: string;
  attempt_id: string | null;
  task_id: string;
  old_reward: number | null;
  old_verdict: string | null;
  new_reward: number | null;
  new_verdict: string | null;
  error_kind: ErrorKind | null;
  error: string | null;
  /** The grader's `details`, as JSON text. */
  details: string | null;
  duration_ms: number;
  grader: string;
}

/** A row is one rollout (its file and line) under one grader command. */
export const rowKey = (r: Pick<RegradeRow, 'grader' | 'file' | 'line'>): string => JSON.stringify([r.grader, r.file, r.line]);

/** Absent when `v` is not of the type: `undefined` means "spoiled". */
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
const strOrNull = (v: unknown): string | null | undefined => (v === null ? null : str(v));
const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
const numOrNull = (v: unknown): number | null | undefined => (v === null ? null : num(v));
const kindOrNull = (v: unknown): ErrorKind | null | undefined => (v === null ? null : ERROR_KINDS.find((k) => k === v));

/** A journal line read back, or null: the journal is a file on disk, so each line is checked, not trusted. */
export function rowFrom(v: unknown): RegradeRow | null {
  if (typeof v !== 'object' || v === null) return null;
  const o: Record<string, unknown> = { ...v };
  const row = {
    file: str(o.file),
    line: Number.isSafeInteger(o.line) ? num(o.line) : undefined,
    rollout_id: str(o.rollout_id),
    attempt_id: strOrNull(o.attempt_id),
    task_id: str(o.task_id),
    old_reward: numOrNull(o.old_reward),
    old_verdict: strOrNull(o.old_verdict),
    new_reward: numOrNull(o.new_reward),
    new_verdict: strOrNull(o.new_verdict),
    error_kind: kindOrNull(o.error_kind),
    error: strOrNull(o.error),
    details: strOrNull(o.details),
    duration_ms: num(o.duration_ms),
    grader: str(o.grader),
  };
  return isComplete(row) ? row : null;
}

function isComplete<T extends object>(row: T): row is { [K in keyof T]: Exclude<T[K], undefined> } {
  return Object.values(row).every((x) => x !== undefined);
}

export interface RegradeSummary {
  graded: number;
  errors: Map<ErrorKind, number>;
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
