import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type DuckDBConnection, DuckDBInstance, StatementType } from '@duckdb/node-api';
import { STD_EPSILON } from '../../analysis';
import { encodeIndexShard } from '../../format/runIndex/columns';
import type { RunManifest } from '../../format/runIndex/manifest';
import { insideIndex } from './ownFiles';

const quote = (s: string) => `'${s.replaceAll("'", "''")}'`;

/**
 * §6's group statistics as a reduction over the index, equal to lint's however a group is split across
 * files: counted = in the signal with a numeric reward; std is the sample std (n-1), 0 for a group whose
 * counted rewards are all equal, null under two. The mixed-* flags are lint's group warnings.
 */
const GROUPS_SQL = `
SELECT group_id,
  count(*)::INTEGER AS rollouts,
  count(*) FILTER (WHERE in_signal)::INTEGER AS in_signal,
  count(*) FILTER (WHERE termination = 'unknown')::INTEGER AS unknown_termination,
  count(*) FILTER (WHERE in_signal AND reward IS NOT NULL)::INTEGER AS n,
  avg(reward) FILTER (WHERE in_signal AND reward IS NOT NULL) AS mean,
  CASE WHEN n < 2 THEN NULL
       WHEN min(reward) FILTER (WHERE in_signal AND reward IS NOT NULL) = max(reward) FILTER (WHERE in_signal AND reward IS NOT NULL) THEN 0.0
       ELSE stddev_samp(reward) FILTER (WHERE in_signal AND reward IS NOT NULL) END AS std,
  n >= 2 AND min(reward) FILTER (WHERE in_signal AND reward IS NOT NULL) = max(reward) FILTER (WHERE in_signal AND reward IS NOT NULL) AS zero_variance,
  count(DISTINCT coalesce(policy_version, '(none)')) > 1 AS mixed_policy,
  min(training_step) AS training_step
FROM rollouts GROUP BY group_id`;

/**
 * Each rollout's advantage in its group, GRPO ((r - mean) / (std + 1e-6)) and Dr. GRPO (r - mean); null
 * for a rollout not counted; 0 in a group of one or of equal rewards (§6).
 */
const ADVANTAGES_SQL = `
SELECT r.file, r.line, r.rollout_id, r.attempt_id, r.group_id, r.training_step, r.reward,
  CASE WHEN NOT (r.in_signal AND r.reward IS NOT NULL) THEN NULL
       WHEN g.n < 2 OR g.zero_variance THEN 0.0
       ELSE (r.reward - g.mean) / (g.std + ${STD_EPSILON}) END AS advantage,
  CASE WHEN NOT (r.in_signal AND r.reward IS NOT NULL) THEN NULL
       WHEN g.n < 2 OR g.zero_variance THEN 0.0
       ELSE r.reward - g.mean END AS advantage_dr_grpo
FROM rollouts r JOIN groups g USING (group_id)`;

/** Rollouts whose (rollout_id, attempt_id) occurs more than once in the run: lint's E_DUPLICATE_ROLLOUT. */
const DUPLICATES_SQL = `
SELECT * FROM rollouts
WHERE (rollout_id, coalesce(attempt_id, '')) IN (
  SELECT (rollout_id, coalesce(attempt_id, '')) FROM rollouts GROUP BY ALL HAVING count(*) > 1)`;

/** The lines of the run that are no rollout (parse_errors of the manifest), as a table. */
function parseErrorRows(manifest: RunManifest): string {
  const rows = manifest.files.flatMap((f) =>
    f.parse_errors.map((e) => `(${quote(f.file)}, ${e.line}, ${quote(e.code)}, ${quote(e.message)})`),
  );
  return rows.length === 0
    ? `SELECT NULL::VARCHAR AS file, NULL::INTEGER AS line, NULL::VARCHAR AS code, NULL::VARCHAR AS message WHERE false`
    : `SELECT * FROM (VALUES ${rows.join(', ')}) AS t(file, line, code, message)`;
}

/**
 * An in-memory DuckDB over an index: view `rollouts` over the shards the manifest names (not a glob, so
 * a shard being replaced is never read twice), and views `groups`, `advantages`, `duplicates`,
 * `parse_errors`; with `regrade` (a regrade.parquet, docs/adr/0025), a view `regrade` over it, rows keyed
 * by (grader, file, line). An index with no rows still has a typed `rollouts` (an empty shard in a temp dir).
 *
 * Read-only unless `allowWrite` (docs/adr/0021): a query is pasted from a note or a dashboard more often
 * than it is written, so once the views exist the database may read the shards and nothing else on disk
 * (`enable_external_access = false` with the shards as `allowed_paths`, the configuration locked), and
 * `run`/`stream` refuse any statement but a query.
 */
export async function openIndexDb(
  indexDir: string,
  manifest: RunManifest,
  { allowWrite = false, regrade }: { allowWrite?: boolean; regrade?: string } = {},
): Promise<IndexDb> {
  const db = await DuckDBInstance.create(':memory:');
  const c = await db.connect();
  let paths: string[] = [];
  for (const f of manifest.files) for (const s of f.shards) paths.push(await insideIndex(indexDir, s.path));
  if (paths.length === 0) {
    const empty = join(await mkdtemp(join(tmpdir(), 'trajscope-empty-')), 'empty.parquet');
    await writeFile(empty, new Uint8Array(encodeIndexShard([])));
    paths = [empty];
  }
  const list = `[${paths.map(quote).join(', ')}]`;
  await c.run(`CREATE VIEW rollouts AS SELECT * FROM read_parquet(${list}, union_by_name = true)`);
  if (regrade !== undefined) await c.run(`CREATE VIEW regrade AS SELECT * FROM read_parquet(${quote(regrade)})`);
  await c.run(`CREATE VIEW groups AS ${GROUPS_SQL}`);
  await c.run(`CREATE VIEW advantages AS ${ADVANTAGES_SQL}`);
  await c.run(`CREATE VIEW duplicates AS ${DUPLICATES_SQL}`);
  await c.run(`CREATE VIEW parse_errors AS ${parseErrorRows(manifest)}`);
  if (!allowWrite) {
    await c.run(`SET allowed_paths = [${[...paths, ...(regrade === undefined ? [] : [regrade])].map(quote).join(', ')}]`);
    await c.run('SET enable_external_access = false');
    await c.run('SET lock_configuration = true');
  }
  return new IndexDb(c, !allowWrite);
}

/** The statements a read-only connection runs: a query, or EXPLAIN of one (EXPLAIN ANALYZE runs it). */
const READ_STATEMENTS = new Set<StatementType>([StatementType.SELECT, StatementType.EXPLAIN]);

export class IndexDb {
  constructor(
    private readonly c: DuckDBConnection,
    readonly readOnly: boolean,
  ) {}

  /** One statement, checked: a read-only connection refuses anything but a query, naming what it got. */
  private async checked(sql: string): Promise<string> {
    const statements = await this.c.extractStatements(sql);
    if (statements.count !== 1) throw new Error(`give one SQL statement (this text has ${statements.count})`);
    if (!this.readOnly) return sql;
    const type = (await statements.prepare(0)).statementType;
    if (!READ_STATEMENTS.has(type)) throw new ReadOnlyRefused(sql, type);
    if (type === StatementType.EXPLAIN) {
      // EXPLAIN ANALYZE executes what it explains: the statement inside must be a query too.
      const inner = sql.replace(/^\s*EXPLAIN\s+(ANALYZE\s+)?/i, '');
      const innerType = (await (await this.c.extractStatements(inner)).prepare(0)).statementType;
      if (innerType !== StatementType.SELECT) throw new ReadOnlyRefused(inner, innerType);
    }
    return sql;
  }

  /** Every row of one statement (small results: tests, the bench). */
  async run(sql: string): Promise<{ columns: string[]; rows: Cell[][] }> {
    const reader = await this.c.runAndReadAll(await this.checked(sql));
    return { columns: reader.columnNames(), rows: reader.getRowsJS().map((r) => r.map(plainCell)) };
  }

  /** One statement's column names, then its rows a chunk at a time as DuckDB makes them (stop early by returning). */
  async stream(sql: string): Promise<{ columns: string[]; chunks: AsyncIterable<Cell[][]> }> {
    const result = await this.c.stream(await this.checked(sql));
    const chunks = async function* () {
      for await (const rows of result.yieldRowsJs()) yield rows.map((r) => r.map(plainCell));
    };
    return { columns: result.columnNames(), chunks: chunks() };
  }

  close(): void {
    this.c.closeSync();
  }
}

/** A statement that would change the database or reach the file system, refused on a read-only connection. */
export class ReadOnlyRefused extends Error {
  constructor(sql: string, type: StatementType) {
    // The statement's own first word (INSTALL and LOAD share a type), else DuckDB's name for its type.
    const word = /^\s*([A-Za-z]+)/.exec(sql)?.[1]?.toUpperCase() ?? StatementType[type];
    super(
      `refused: ${word} statements are not run; query reads the index only (SELECT, EXPLAIN). ` +
        'Pass --allow-write to run any SQL with file access, for a query you wrote yourself',
    );
  }
}

export type Cell = string | number | boolean | null | Cell[] | { [k: string]: Cell };

/** A DuckDB JS value as plain JSON: a BIGINT as a number when exact (else a string), a timestamp as ISO text. */
function plainCell(v: unknown): Cell {
  if (v === null || v === undefined) return null;
  if (typeof v === 'bigint') return Number.isSafeInteger(Number(v)) ? Number(v) : v.toString();
  if (v instanceof Date) return Number.isNaN(v.getTime()) ? null : v.toISOString();
  if (Array.isArray(v)) return v.map(plainCell);
  if (typeof v === 'object') return Object.fromEntries(Object.entries(v as object).map(([k, x]) => [k, plainCell(x)]));
  if (typeof v === 'number' || typeof v === 'string' || typeof v === 'boolean') return v;
  return String(v);
}
