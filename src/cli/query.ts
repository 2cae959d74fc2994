import { stat } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { buildIndex, readManifest, writableRunIndexDir } from './runIndex/build';
import { type Cell, openIndexDb, runSql } from './runIndex/sql';

/**
 * `trajscope query RUN_OR_INDEX "SQL" [--json | --csv]`: SQL (DuckDB, embedded) over a run index; the
 * tables are `rollouts` (one row per rollout, docs/adr/0013), `groups` (§6 reduced over the index),
 * `advantages`, `duplicates` and `parse_errors`. A run directory is indexed (or refreshed) first, into
 * RUN/.trajscope/index. Exit 0 with rows printed, 2 on a bad path, a bad index or bad SQL.
 */
export async function runQuery(argv: string[]): Promise<number> {
  try {
    return await query(argv);
  } catch (e) {
    process.stderr.write(`trajscope query: ${e instanceof Error ? e.message : String(e)}\n`);
    return 2;
  }
}

async function query(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      json: { type: 'boolean', default: false },
      csv: { type: 'boolean', default: false },
      jobs: { type: 'string', short: 'j' },
    },
  });
  const [target, sql, ...extra] = positionals;
  if (target === undefined || sql === undefined || extra.length > 0) {
    throw new Error(
      'usage: trajscope query RUN_OR_INDEX "SQL" [--json | --csv]   (tables: rollouts, groups, advantages, duplicates, parse_errors)',
    );
  }
  if (values.json && values.csv) throw new Error('choose one of --json and --csv');
  const dir = await indexDirOf(target, values.jobs === undefined ? availableParallelism() : Number(values.jobs));
  const manifest = await readManifest(dir);
  if (!manifest) throw new Error(`${dir} has no manifest.json`);
  const c = await openIndexDb(dir, manifest);
  let result: Awaited<ReturnType<typeof runSql>>;
  try {
    result = await runSql(c, sql);
  } catch (e) {
    // DuckDB's own message names the problem (and the position, for a syntax error).
    throw new Error(`the SQL failed: ${e instanceof Error ? e.message : String(e)}`);
  } finally {
    c.closeSync();
  }
  const out = values.json ? toJson(result) : values.csv ? toCsv(result) : toTable(result);
  process.stdout.write(out);
  return 0;
}

/**
 * The index directory a target names: an index (it holds manifest.json), or a run directory, whose own
 * index (RUN/.trajscope/index, or the user's cache for a run that cannot be written) is built or
 * refreshed first (an unchanged file costs one stat).
 */
async function indexDirOf(target: string, jobs: number): Promise<string> {
  const s = await stat(target).catch((e: NodeJS.ErrnoException) => {
    throw new Error(`cannot read ${target}: ${e.code === 'ENOENT' ? 'no such file or directory' : e.message}`);
  });
  if (!s.isDirectory())
    throw new Error(`${target} is a file: name a run directory or a run index directory (trajscope index RUN --out DIR)`);
  if (await stat(join(target, 'manifest.json')).catch(() => null)) return target;
  const out = await writableRunIndexDir(target);
  try {
    const outcome = await buildIndex({ inputs: [target], outDir: out, jobs: Number.isSafeInteger(jobs) && jobs > 0 ? jobs : 1 });
    if (outcome.indexed + outcome.resumed > 0) process.stderr.write(`trajscope query: indexed ${target} into ${out}\n`);
  } catch (e) {
    const why = e instanceof Error ? e.message : String(e);
    if (/^no trajectory files/.test(why))
      throw new Error(`${target} is neither a run index (no manifest.json) nor a run directory (${why})`);
    throw e;
  }
  return out;
}

function text(v: Cell): string {
  if (v === null) return 'NULL';
  if (typeof v === 'string') return v;
  return typeof v === 'object' ? JSON.stringify(v) : String(v);
}

function toJson({ columns, rows }: { columns: string[]; rows: Cell[][] }): string {
  return `${JSON.stringify(rows.map((r) => Object.fromEntries(columns.map((c, i) => [c, r[i] ?? null]))))}\n`;
}

function toCsv({ columns, rows }: { columns: string[]; rows: Cell[][] }): string {
  const field = (v: Cell) => {
    const s = v === null ? '' : text(v);
    return /[",\r\n]/.test(s) ? `"${s.replaceAll('"', '""')}"` : s;
  };
  return [columns, ...rows].map((r) => `${r.map((v) => field(v as Cell)).join(',')}\r\n`).join('');
}

/** Longest cell shown in the table; --json and --csv print every value whole. */
const CELL_WIDTH = 60;

function toTable({ columns, rows }: { columns: string[]; rows: Cell[][] }): string {
  // Control characters in untrusted text would move the terminal's cursor: shown escaped.
  const clean = (s: string) => s.replace(/\p{Cc}/gu, (ch) => JSON.stringify(ch).slice(1, -1));
  const cut = (s: string) => (s.length > CELL_WIDTH ? `${s.slice(0, CELL_WIDTH - 1)}…` : s);
  const cells = rows.map((r) => r.map((v) => cut(clean(text(v)))));
  const numeric = columns.map((_, i) => rows.length > 0 && rows.every((r) => r[i] === null || typeof r[i] === 'number'));
  const width = columns.map((c, i) => Math.max(c.length, ...cells.map((r) => r[i]?.length ?? 0)));
  const line = (r: string[]) =>
    r
      .map((s, i) => (numeric[i] ? s.padStart(width[i] ?? 0) : s.padEnd(width[i] ?? 0)))
      .join('  ')
      .trimEnd();
  const rule = width.map((w) => '-'.repeat(w)).join('  ');
  return `${[line(columns), rule, ...cells.map(line)].join('\n')}\n(${rows.length} row${rows.length === 1 ? '' : 's'})\n`;
}
