import { shownValue } from '../json';
/*
 * A regrade's rows (docs/adr/0025) as the page and the analysis read them: the journal's JSON lines or
 * the rows of regrade.parquet. `trajscope regrade` writes them (src/cli/regrade/rows.ts, with this type);
 * here they come back from a file the person opened or the view server, so every field is checked once
 * and an error names the row and the field.
 */

/** Where `trajscope regrade RUN --out RUN/.trajscope/regrade` writes, and where `view` and `query` look by themselves. */
export const REGRADE_DIR = '.trajscope/regrade';
export const REGRADE_TABLE_FILE = 'regrade.parquet';
export const REGRADE_JOURNAL_FILE = 'regrade.journal';

/** One rollout regraded by one grader command: a row of regrade.parquet, a line of regrade.journal. */
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
  /** Why there is no new verdict (`no_artifact`, `timeout`, `crash`, ...); null when graded. */
  error_kind: string | null;
  error: string | null;
  details: string | null;
  duration_ms: number;
  grader: string;
}

/** What is wrong with a regrade table, naming the row and the field (`line 7: new_reward ...`). */
export class RegradeTableError extends Error {}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A Parquet INT64 arrives as a bigint: exact ones are numbers. */
const numberOf = (v: unknown): unknown => (typeof v === 'bigint' && Number.isSafeInteger(Number(v)) ? Number(v) : v);

/**
 * One row checked: `where` names it in an error (`line 7`, `row 3`). Strings must be strings, rewards
 * finite numbers or null, `line` a whole number from 1.
 */
export function regradeRowOf(v: unknown, where: string): RegradeRow {
  if (!isObject(v)) throw new RegradeTableError(`${where}: must be an object, got ${shownValue(v)}`);
  const bad = (field: string, must: string): never => {
    throw new RegradeTableError(`${where}: ${field} must be ${must}, got ${shownValue(v[field])}`);
  };
  const str = (field: string): string => (typeof v[field] === 'string' ? (v[field] as string) : bad(field, 'a string'));
  const strOrNull = (field: string): string | null => {
    const x = v[field] ?? null;
    return x === null || typeof x === 'string' ? x : bad(field, 'a string or null');
  };
  const num = (field: string, orNull: boolean): number | null => {
    const x = numberOf(v[field] ?? null);
    if (x === null && orNull) return null;
    return typeof x === 'number' && Number.isFinite(x) ? x : bad(field, orNull ? 'a finite number or null' : 'a finite number');
  };
  const line = numberOf(v.line);
  if (typeof line !== 'number' || !Number.isSafeInteger(line) || line < 1) bad('line', 'a whole number from 1');
  return {
    file: str('file'),
    line: line as number,
    rollout_id: str('rollout_id'),
    attempt_id: strOrNull('attempt_id'),
    task_id: str('task_id'),
    old_reward: num('old_reward', true),
    old_verdict: strOrNull('old_verdict'),
    new_reward: num('new_reward', true),
    new_verdict: strOrNull('new_verdict'),
    error_kind: strOrNull('error_kind'),
    error: strOrNull('error'),
    details: strOrNull('details'),
    duration_ms: num('duration_ms', false) ?? 0,
    grader: str('grader'),
  };
}

/** A row is one rollout (its file and line) under one grader command: the key a later row of it replaces. */
export const regradeRowKey = (r: Pick<RegradeRow, 'grader' | 'file' | 'line'>): string => JSON.stringify([r.grader, r.file, r.line]);

/** The last row per (grader, file, line), as the journal's reader keeps them: a rollout regraded again replaces its row. */
function lastPerKey(rows: Iterable<RegradeRow>): RegradeRow[] {
  const byKey = new Map<string, RegradeRow>();
  for (const r of rows) byKey.set(regradeRowKey(r), r);
  return [...byKey.values()];
}

/**
 * The rows of a regrade.journal. A last line that is not JSON was cut short by an interruption (the CLI
 * runs that rollout again) and is left out; any other line that is not a row is an error naming it.
 */
export function parseRegradeJournal(text: string): RegradeRow[] {
  const lines = text.split('\n');
  let last = lines.length - 1;
  while (last >= 0 && (lines[last] ?? '').trim() === '') last--;
  const rows: RegradeRow[] = [];
  lines.forEach((line, i) => {
    if (line.trim() === '') return;
    let v: unknown;
    try {
      v = JSON.parse(line);
    } catch {
      if (i === last) return;
      throw new RegradeTableError(`line ${i + 1}: not JSON: a regrade journal holds one JSON object per line`);
    }
    rows.push(regradeRowOf(v, `line ${i + 1}`));
  });
  return lastPerKey(rows);
}

/** The rows of regrade.parquet, as a Parquet reader returns them (one object per row). */
export function regradeRowsOf(objects: readonly unknown[]): RegradeRow[] {
  return lastPerKey(objects.map((o, i) => regradeRowOf(o, `row ${i + 1}`)));
}
