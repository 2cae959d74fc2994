import { stat } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { plural } from '../analysis';
import { formatCount, REGRADE_DIR, REGRADE_JOURNAL_FILE, REGRADE_TABLE_FILE } from '../format';
import { buildIndex, readIndexOwnManifest, writableRunIndexDir } from './runIndex/build';
import { type Cell, openIndexDb, ReadOnlyRefused } from './runIndex/sql';

/**
 * `trajscope query RUN_OR_INDEX "SQL" [--json | --csv]`: SQL (DuckDB, embedded) over a run index; the
 * tables are `rollouts` (one row per rollout, docs/adr/0013), `groups` (§6 reduced over the index),
 * `advantages`, `duplicates` and `parse_errors`, and `regrade` (a regrade's rows, docs/adr/0025) when
 * RUN/.trajscope/regrade/regrade.parquet exists or `--regrade DIR` names one. A run directory is indexed
 * (or refreshed) first, into RUN/.trajscope/index. Read-only over the index unless `--allow-write`
 * (sql.ts); at most `--limit` rows printed, streamed. Exit 0 with rows printed, 2 on a bad path, a bad or refused index, bad or refused SQL.
 */
export async function runQuery(argv: string[]): Promise<number> {
  try {
    return await query(argv);
  } catch (e) {
    process.stderr.write(`trajscope query: ${e instanceof Error ? e.message : String(e)}\n`);
    return 2;
  }
}

/** Rows `query` prints unless `--limit` says otherwise: a pasted `SELECT * FROM range(1e9)` must end. */
const DEFAULT_QUERY_LIMIT = 10_000;

const USAGE =
  'usage: trajscope query RUN_OR_INDEX "SQL" [--json | --csv] [--limit N] [--regrade DIR] [--allow-write]   (tables: rollouts, groups, advantages, duplicates, parse_errors; regrade)';

async function query(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      json: { type: 'boolean', default: false },
      csv: { type: 'boolean', default: false },
      jobs: { type: 'string', short: 'j' },
      limit: { type: 'string' },
      regrade: { type: 'string' },
      'allow-write': { type: 'boolean', default: false },
    },
  });
  const [target, sql, ...extra] = positionals;
  if (target === undefined || sql === undefined || extra.length > 0) throw new Error(USAGE);
  if (values.json && values.csv) throw new Error('choose one of --json and --csv');
  const limit = values.limit === undefined ? DEFAULT_QUERY_LIMIT : Number(values.limit);
  if (!Number.isSafeInteger(limit) || limit < 0)
    throw new Error(`--limit must be a whole number of rows (0 for no bound), got "${values.limit}"`);
  const dir = await indexDirOf(target, values.jobs === undefined ? availableParallelism() : Number(values.jobs));
  const manifest = await readIndexOwnManifest(dir);
  if (!manifest) throw new Error(`${dir} has no manifest.json`);
  const regrade = values.regrade === undefined ? await foundRegrade(target, dir) : await namedRegrade(values.regrade);
  const db = await openIndexDb(dir, manifest, { allowWrite: values['allow-write'], ...(regrade ? { regrade } : {}) });
  try {
    const { columns, chunks } = await db.stream(sql).catch((e: unknown) => {
      throw e instanceof ReadOnlyRefused ? e : sqlError(e);
    });
    const printer = values.json ? jsonPrinter(columns) : values.csv ? csvPrinter(columns) : tablePrinter(columns);
    let printed = 0;
    let cut = false;
    try {
      for await (const rows of chunks) {
        const room = limit === 0 ? rows.length : limit - printed;
        if (rows.length > room) cut = true;
        const kept = rows.length > room ? rows.slice(0, room) : rows;
        if (kept.length > 0) await write(printer.rows(kept, printed));
        printed += kept.length;
        if (cut) break;
      }
    } catch (e) {
      throw sqlError(e);
    }
    await write(printer.end(printed, cut));
    if (cut) process.stderr.write(`trajscope query: printed the first ${formatCount(printed)} rows; --limit N for more (0: no bound)\n`);
  } finally {
    db.close();
  }
  return 0;
}

/**
 * DuckDB's own message names the problem (and the position, for a syntax error). A read-only refusal
 * (a file function, COPY, ATTACH, INSTALL on the locked connection) is said in one line.
 */
function sqlError(e: unknown): Error {
  const message = (e instanceof Error ? e.message : String(e)).replace(/^Failed to extract statements: /, '');
  const denied = /^Permission Error: (.*?)(?: - file system operations are disabled by configuration)?$/m.exec(message);
  if (denied)
    return new Error(
      `refused: ${denied[1]}: query reads the index only; --allow-write runs any SQL with file access, for a query you wrote yourself`,
    );
  return new Error(`the SQL failed: ${message}`);
}

/** Writes to stdout, waiting when the pipe is full (a slow reader holds the rows in DuckDB, not here). */
function write(text: string): Promise<void> {
  if (text === '' || process.stdout.write(text)) return Promise.resolve();
  return new Promise((resolve) => process.stdout.once('drain', () => resolve()));
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

const isFile = (path: string) =>
  stat(path).then(
    (s) => s.isFile(),
    () => false,
  );

/**
 * The regrade table `regrade --out RUN/.trajscope/regrade` wrote, found by itself: in the run directory
 * named, or beside the run's own index (RUN/.trajscope/index) when that is what was named.
 */
async function foundRegrade(target: string, indexDir: string): Promise<string | undefined> {
  const own = basename(indexDir) === 'index' && basename(dirname(indexDir)) === '.trajscope' ? dirname(dirname(indexDir)) : target;
  const path = resolve(own, REGRADE_DIR, REGRADE_TABLE_FILE);
  return (await isFile(path)) ? path : undefined;
}

/** `--regrade DIR` (or the Parquet file itself): its regrade.parquet, or what is wrong. */
async function namedRegrade(named: string): Promise<string> {
  const s = await stat(named).catch(() => null);
  if (s === null) throw new Error(`--regrade ${named}: no such file or directory`);
  if (s.isFile()) return resolve(named);
  const path = resolve(named, REGRADE_TABLE_FILE);
  if (await isFile(path)) return path;
  if (await isFile(join(named, REGRADE_JOURNAL_FILE)))
    throw new Error(
      `--regrade ${named} has a ${REGRADE_JOURNAL_FILE} but no ${REGRADE_TABLE_FILE}: the regrade did not finish; run it again to go on`,
    );
  throw new Error(`--regrade ${named} has no ${REGRADE_TABLE_FILE} (trajscope regrade --out DIR writes it)`);
}

function text(v: Cell): string {
  if (v === null) return 'NULL';
  if (typeof v === 'string') return v;
  return typeof v === 'object' ? JSON.stringify(v) : String(v);
}

interface Printer {
  /** The text for the next rows; `before` rows were printed already. */
  rows(rows: Cell[][], before: number): string;
  end(printed: number, cut: boolean): string;
}

/** One JSON array, as one line, written a chunk at a time. */
function jsonPrinter(columns: string[]): Printer {
  const object = (r: Cell[]) => JSON.stringify(Object.fromEntries(columns.map((c, i) => [c, r[i] ?? null])));
  return {
    rows: (rows, before) => (before === 0 ? '[' : ',') + rows.map(object).join(','),
    end: (printed) => (printed === 0 ? '[]\n' : ']\n'),
  };
}

function csvPrinter(columns: string[]): Printer {
  const field = (v: Cell) => {
    const s = v === null ? '' : text(v);
    return /[",\r\n]/.test(s) ? `"${s.replaceAll('"', '""')}"` : s;
  };
  const line = (r: Cell[]) => `${r.map(field).join(',')}\r\n`;
  return {
    rows: (rows, before) => (before === 0 ? line(columns) : '') + rows.map(line).join(''),
    end: (printed) => (printed === 0 ? line(columns) : ''),
  };
}

/** Longest cell shown in the table; --json and --csv print every value whole. */
const CELL_WIDTH = 60;

/**
 * An aligned table, printed as the rows come: the widths and which columns are numbers are fixed by the
 * first chunk (up to 2,048 rows), so a later, wider cell (at most CELL_WIDTH) pushes its line out.
 */
function tablePrinter(columns: string[]): Printer {
  // Control characters in untrusted text would move the terminal's cursor: shown escaped.
  const clean = (s: string) => s.replace(/\p{Cc}/gu, (ch) => JSON.stringify(ch).slice(1, -1));
  const cut = (s: string) => (s.length > CELL_WIDTH ? `${s.slice(0, CELL_WIDTH - 1)}…` : s);
  let width: number[] = columns.map((c) => c.length);
  let numeric: boolean[] = columns.map(() => false);
  const line = (r: string[]) =>
    r
      .map((s, i) => (numeric[i] ? s.padStart(width[i] ?? 0) : s.padEnd(width[i] ?? 0)))
      .join('  ')
      .trimEnd();
  const head = () => `${line(columns)}\n${width.map((w) => '-'.repeat(w)).join('  ')}\n`;
  return {
    rows: (rows, before) => {
      const cells = rows.map((r) => r.map((v) => cut(clean(text(v)))));
      if (before > 0) return cells.map((r) => `${line(r)}\n`).join('');
      numeric = columns.map((_, i) => rows.every((r) => r[i] === null || typeof r[i] === 'number'));
      width = columns.map((c, i) => Math.max(c.length, ...cells.map((r) => r[i]?.length ?? 0)));
      return head() + cells.map((r) => `${line(r)}\n`).join('');
    },
    end: (printed, cut) => `${printed === 0 ? head() : ''}(${plural(printed, 'row')}${cut ? ', cut at --limit' : ''})\n`,
  };
}
