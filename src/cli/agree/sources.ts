import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { parquetReadObjects } from 'hyparquet';
import type { GradedRollout, ReviewerLogEntry } from '../../analysis';
import { foldReviewsByReviewer, plural } from '../../analysis';
import { isReviewEntryError, parseReviewsJsonl, type ReadOptions, type RegradeRow, type Review, toReviewLogEntry } from '../../format';
import { readJsonlFile } from '../readFile';
import { rowFrom } from '../regrade/rows';
import { JOURNAL_FILE, readJournal, TABLE_FILE } from '../regrade/table';
import { listInputs } from '../runIndex/inputs';

/** An input that cannot be used at all: its message names it (exit 2). */
export class SourceError extends Error {}

/** Something read but not used, said on stderr: a bad line, a record that could not be read. */
export type Warn = (text: string) => void;

const reason = (e: unknown) => ((e as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file or directory' : String(e));

/** The records of every trajectory file and run directory named, as the grader's labels need them. */
export async function readGraded(
  paths: readonly string[],
  read: ReadOptions,
  warn: Warn,
): Promise<{ files: number; rollouts: GradedRollout[] }> {
  // No output directory to leave out of a run: '\0' is no path's prefix.
  const { inputs } = await listInputs(paths, '\0').catch((e: unknown) => {
    throw new SourceError(e instanceof Error ? e.message : String(e));
  });
  const rollouts: GradedRollout[] = [];
  for (const input of inputs) {
    let bad = 0;
    const summary = await readJsonlFile(
      input.path,
      (r) => {
        if (r.kind === 'error') bad++;
        else {
          const { record } = r.value;
          rollouts.push({
            rollout_id: record.rollout_id,
            attempt_id: record.attempt_id ?? null,
            task_id: record.task_id,
            verdict: record.grading?.verdict ?? null,
          });
        }
      },
      read,
      { name: input.file },
    ).catch((e: unknown) => {
      throw new SourceError(`cannot read ${input.file}: ${reason(e)}`);
    });
    if (summary.unsupported !== null) throw new SourceError(`${input.file}: ${summary.unsupported}`);
    if (bad > 0) warn(`${input.file}: ${plural(bad, 'line')} not read as rollouts (trajscope lint says why)`);
  }
  return { files: inputs.length, rollouts };
}

/**
 * A regrade's rows: `DIR/regrade.journal` (every row, an interrupted regrade's too), else
 * `DIR/regrade.parquet`; a path to either file is read as that file.
 */
export async function readRegrade(path: string): Promise<RegradeRow[]> {
  const s = await stat(path).catch((e: unknown) => {
    throw new SourceError(`cannot read the regrade ${path}: ${reason(e)}`);
  });
  const exists = (p: string) =>
    stat(p).then(
      (x) => x.isFile(),
      () => false,
    );
  let file = path;
  if (s.isDirectory()) {
    if (await exists(join(path, JOURNAL_FILE))) file = join(path, JOURNAL_FILE);
    else if (await exists(join(path, TABLE_FILE))) file = join(path, TABLE_FILE);
    else throw new SourceError(`the regrade ${path} has no ${JOURNAL_FILE} or ${TABLE_FILE} (trajscope regrade --out DIR writes them)`);
  }
  try {
    if (!file.endsWith('.parquet')) return await readJournal(file);
    const bytes = await readFile(file);
    const rows = await parquetReadObjects({
      file: bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer,
    });
    return rows.map(rowFrom).filter((r): r is RegradeRow => r !== null);
  } catch (e) {
    throw new SourceError(`cannot read the regrade ${file}: ${e instanceof Error ? e.message : String(e)}`);
  }
}

/**
 * The reviews of an exported reviews file (the page's "Export reviews") or of a run's shared review log
 * (`.trajscope/reviews.jsonl`, told by an `op` on its first line), folded to the reviews standing.
 * A bad line is said and skipped; the others count.
 */
export async function readReviews(path: string, warn: Warn): Promise<Review[]> {
  const text = await readFile(path, 'utf8').catch((e: unknown) => {
    throw new SourceError(`cannot read the reviews ${path}: ${reason(e)}`);
  });
  const lines = text.split('\n').map((l) => (l.endsWith('\r') ? l.slice(0, -1) : l));
  const first = lines.find((l) => l.trim() !== '');
  if (first === undefined || !isLogLine(first)) {
    const parsed = parseReviewsJsonl(text);
    for (const e of parsed.errors) warn(`${path}:${e.line}: ${e.message}`);
    return parsed.entries.map((e) => e.review);
  }
  const entries: ReviewerLogEntry[] = [];
  lines.forEach((line, i) => {
    if (line.trim() === '') return;
    const entry = logEntry(line);
    if (typeof entry === 'string') warn(`${path}:${i + 1}: ${entry}`);
    else entries.push(entry);
  });
  return foldReviewsByReviewer(entries);
}

function isLogLine(line: string): boolean {
  try {
    const v: unknown = JSON.parse(line);
    return typeof v === 'object' && v !== null && 'op' in v;
  } catch {
    return false;
  }
}

/**
 * One line of the shared log, checked by the log's own validator (format/reviews/reviewLog.ts, as the
 * `view` server checks what it appends), as agreement's entry; or what is wrong with it, naming the field.
 */
function logEntry(line: string): ReviewerLogEntry | string {
  let v: unknown;
  try {
    v = JSON.parse(line);
  } catch (e) {
    return `not valid JSON (${e instanceof Error ? e.message : String(e)})`;
  }
  const entry = toReviewLogEntry(v);
  if (isReviewEntryError(entry)) return entry.message;
  const ref = { rollout_id: entry.rollout_id, attempt_id: entry.attempt_id, reviewer: entry.reviewer };
  if (entry.op === 'remove') return { op: 'remove', digest: entry.digest, review: ref };
  const { op: _op, digest, ...review } = entry;
  return { op: 'put', digest, review };
}
