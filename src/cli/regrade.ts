import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { availableParallelism, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { type LoadedRollout, type ReadOptions, type RegradeRow, regradeRowKey } from '../format';
import { readJsonlFile } from './readFile';
import { READ_FLAGS, readOptionsOf, wholeFlag } from './readOptions';
import { artifactOf, UnsafeArtifactName, writeArtifactFiles } from './regrade/artifact';
import { type ErrorKind, summarizeRows, summaryText } from './regrade/rows';
import { parseGraderOutput, runGrader } from './regrade/runGrader';
import { JOURNAL_FILE, Journal, readJournal, TABLE_FILE, writeTable } from './regrade/table';
import { type Input, listInputs } from './runIndex/inputs';

const USAGE = "usage: trajscope regrade RUN_OR_FILE... --grader 'CMD' --out DIR [--jobs N] [--timeout S] [read options]";
const DEFAULT_TIMEOUT_S = 60;
/** Environment values longer than this are left out (the kernel refuses a string past 128 KiB); stdin has them whole. */
const ENV_VALUE_LIMIT = 64 * 1024;

const say = (text: string) => process.stderr.write(`trajscope regrade: ${text}\n`);

export interface RegradeOptions {
  inputs: readonly Input[];
  grader: string;
  out: string;
  jobs: number;
  timeoutMs: number;
  read?: ReadOptions;
  /** Stops starting rollouts and kills the running ones; what finished is in the journal. */
  signal?: AbortSignal;
  /** Called after each row is in the journal. */
  onRow?: (row: RegradeRow) => void;
}

export interface RegradeResult {
  /** This run's rows (those already in the journal are not among them). */
  rows: RegradeRow[];
  /** Rollouts skipped because the journal has them for this grader. */
  skipped: number;
  interrupted: boolean;
  /** Every row of the journal (every grader's), as written to DIR/regrade.parquet (not written when interrupted). */
  table: RegradeRow[];
}

/**
 * Regrades every rollout of the inputs with `grader`: per rollout a fresh temporary directory holding the
 * stored artifact, the task on stdin and in TRAJSCOPE_* variables, the command run there with a timeout.
 * Each row is appended to DIR/regrade.journal (fsync'd) as it finishes; a rollout the journal holds for
 * this grader is skipped, so an interrupted regrade resumes. At the end the journal becomes
 * DIR/regrade.parquet. The sources are only read (docs/adr/0025).
 */
export async function regrade(o: RegradeOptions): Promise<RegradeResult> {
  await mkdir(o.out, { recursive: true });
  const journalPath = join(o.out, JOURNAL_FILE);
  const done = new Set((await readJournal(journalPath)).map(regradeRowKey));
  const pending: LoadedRollout[] = [];
  let skipped = 0;
  for (const input of o.inputs) {
    await readJsonlFile(
      input.path,
      (r) => {
        if (r.kind !== 'rollout') return;
        if (done.has(regradeRowKey({ grader: o.grader, file: input.file, line: r.value.line }))) skipped++;
        else pending.push({ ...r.value, file: input.file });
      },
      o.read,
      { name: input.file },
    );
  }
  const journal = await Journal.open(journalPath);
  const rows: RegradeRow[] = [];
  let next = 0;
  const worker = async () => {
    while (next < pending.length && !o.signal?.aborted) {
      const loaded = pending[next++];
      if (!loaded) break;
      const row = await regradeOne(loaded, o);
      // A rollout cut short by the abort has no verdict: it is left out of the journal and runs again.
      if (row === null) continue;
      await journal.append(row);
      rows.push(row);
      o.onRow?.(row);
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.max(1, o.jobs) }, worker));
  } finally {
    await journal.close();
  }
  const interrupted = o.signal?.aborted === true;
  const table = await readJournal(journalPath);
  if (!interrupted) await writeTable(o.out, table);
  return { rows, skipped, interrupted, table };
}

/** One rollout's row, or null when the abort stopped its grader. */
async function regradeOne(loaded: LoadedRollout, o: RegradeOptions): Promise<RegradeRow | null> {
  const { record } = loaded;
  const started = performance.now();
  const base = {
    file: loaded.file,
    line: loaded.line,
    rollout_id: record.rollout_id,
    attempt_id: record.attempt_id ?? null,
    task_id: record.task_id,
    old_reward: record.reward ?? null,
    old_verdict: record.grading?.verdict ?? null,
    grader: o.grader,
  };
  const row = (
    r: { new_reward?: number; new_verdict?: string | null; details?: string | null } | { kind: ErrorKind; message: string },
  ): RegradeRow => ({
    ...base,
    new_reward: 'kind' in r ? null : (r.new_reward ?? null),
    new_verdict: 'kind' in r ? null : (r.new_verdict ?? null),
    error_kind: 'kind' in r ? r.kind : null,
    error: 'kind' in r ? r.message : null,
    details: 'kind' in r ? null : (r.details ?? null),
    duration_ms: Math.round(performance.now() - started),
  });
  const artifact = artifactOf(record);
  if (!artifact.ok) return row({ kind: artifact.kind, message: artifact.message });
  const task = {
    task_id: record.task_id,
    rollout_id: record.rollout_id,
    attempt_id: record.attempt_id ?? null,
    prompt: record.task?.prompt ?? null,
    contract: record.task?.contract ?? null,
    artifact_digest: artifact.digest,
    artifact_files: artifact.files.map((f) => f.name),
    source: { file: loaded.file, line: loaded.line },
  };
  const dir = await mkdtemp(join(tmpdir(), 'trajscope-regrade-'));
  try {
    await writeArtifactFiles(dir, artifact.files);
    const run = await runGrader(o.grader, {
      cwd: dir,
      env: graderEnv(task),
      input: `${JSON.stringify(task)}\n`,
      timeoutMs: o.timeoutMs,
      ...(o.signal ? { signal: o.signal } : {}),
    });
    if (run.aborted) return null;
    if (run.timedOut) return row({ kind: 'timeout', message: `no verdict within ${o.timeoutMs / 1000} s; its process group was killed` });
    if (run.overflow) return row({ kind: 'garbage', message: 'printed more than 1 MiB' });
    if (run.exitCode !== 0) {
      const how = run.signal ? `was killed by ${run.signal}` : `exited ${run.exitCode}`;
      const tail = run.stderr.trim().slice(-300);
      return row({ kind: 'crash', message: `${how}${tail ? `: ${tail}` : ''}` });
    }
    const verdict = parseGraderOutput(run.stdout);
    if (!verdict.ok) return row({ kind: 'garbage', message: verdict.message });
    return row({ new_reward: verdict.reward, new_verdict: verdict.verdict, details: verdict.details });
  } catch (e) {
    if (e instanceof UnsafeArtifactName) return row({ kind: 'unsafe_name', message: e.message });
    return row({ kind: 'spawn', message: e instanceof Error ? e.message : String(e) });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** The caller's environment and the task's TRAJSCOPE_* variables (one with a NUL, or too long, is left out). */
function graderEnv(task: {
  task_id: string;
  rollout_id: string;
  attempt_id: string | null;
  prompt: string | null;
  contract: string | null;
  artifact_digest: string | null;
  artifact_files: string[];
  source: { file: string; line: number };
}): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined) env[k] = v;
  const ours: Record<string, string | null> = {
    TRAJSCOPE_TASK_ID: task.task_id,
    TRAJSCOPE_ROLLOUT_ID: task.rollout_id,
    TRAJSCOPE_ATTEMPT_ID: task.attempt_id,
    TRAJSCOPE_TASK_PROMPT: task.prompt,
    TRAJSCOPE_TASK_CONTRACT: task.contract,
    TRAJSCOPE_ARTIFACT: task.artifact_files[0] ?? null,
    TRAJSCOPE_ARTIFACT_DIGEST: task.artifact_digest,
    TRAJSCOPE_SOURCE_FILE: task.source.file,
    TRAJSCOPE_SOURCE_LINE: String(task.source.line),
  };
  for (const [k, v] of Object.entries(ours)) {
    delete env[k];
    if (v !== null && !v.includes('\0') && v.length <= ENV_VALUE_LIMIT) env[k] = v;
  }
  return env;
}

/**
 * `trajscope regrade RUN_OR_FILE... --grader 'CMD' --out DIR [--jobs N] [--timeout S]`. Exit 0 when every
 * rollout has a row (errors included), 2 on a bad option or an input that cannot be read, 130 when
 * interrupted (the journal keeps what finished; the same command resumes).
 */
export async function runRegrade(argv: string[]): Promise<number> {
  let values: ReturnType<typeof parse>['values'];
  let paths: string[];
  let read: ReadOptions;
  let jobs: number;
  let timeoutS: number;
  try {
    ({ values, positionals: paths } = parse(argv));
    read = await readOptionsOf(values);
    jobs = wholeFlag('jobs', values.jobs, availableParallelism());
    timeoutS = values.timeout === undefined ? DEFAULT_TIMEOUT_S : Number(values.timeout);
    if (!(Number.isFinite(timeoutS) && timeoutS > 0))
      throw new Error(`--timeout must be a positive number of seconds, got "${values.timeout}"`);
  } catch (e) {
    say(`${e instanceof Error ? e.message : String(e)}\n${USAGE}`);
    return 2;
  }
  if (values.grader === undefined || values.grader.trim() === '') return usage('name the grader command with --grader');
  if (values.out === undefined) return usage('name the output directory with --out DIR');
  if (paths.length === 0) return usage('name at least one run directory or trajectory file');
  if (paths.some((p) => p === '-' || p === '/dev/stdin'))
    return usage('standard input cannot be regraded (a resumed regrade reads the inputs again)');
  const out = resolve(values.out);
  let inputs: Input[];
  try {
    inputs = (await listInputs(paths, out)).inputs;
  } catch (e) {
    say(e instanceof Error ? e.message : String(e));
    return 2;
  }
  const controller = new AbortController();
  const onSigint = () => controller.abort();
  process.once('SIGINT', onSigint);
  process.once('SIGTERM', onSigint);
  const t0 = performance.now();
  let done = 0;
  try {
    const result = await regrade({
      inputs,
      grader: values.grader,
      out,
      jobs,
      timeoutMs: timeoutS * 1000,
      read,
      signal: controller.signal,
      onRow: () => {
        done++;
        if (process.stderr.isTTY) process.stderr.write(`\r${done} graded`);
      },
    });
    if (process.stderr.isTTY && done > 0) process.stderr.write('\n');
    process.stderr.write(
      summaryText(summarizeRows(result.table.filter((r) => r.grader === values.grader)), result.skipped, (performance.now() - t0) / 1000),
    );
    if (result.interrupted) {
      say(`interrupted: ${result.rows.length} rows are in ${join(values.out, JOURNAL_FILE)}; run the same command to go on`);
      return 130;
    }
    say(`${result.table.length} rows written to ${join(values.out, TABLE_FILE)}`);
    return 0;
  } catch (e) {
    say(e instanceof Error ? e.message : String(e));
    return 2;
  } finally {
    process.off('SIGINT', onSigint);
    process.off('SIGTERM', onSigint);
  }
}

function usage(problem: string): number {
  say(`${problem}\n${USAGE}`);
  return 2;
}

function parse(argv: string[]) {
  return parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      grader: { type: 'string' },
      out: { type: 'string' },
      jobs: { type: 'string', short: 'j' },
      timeout: { type: 'string' },
      ...READ_FLAGS,
    },
  });
}
