import { parquetWriteBuffer } from 'hyparquet-writer';

/**
 * One row of the run index (shared/trajectory-format.md §9): the required columns first, then what the run
 * views need so that a run's trends never read the rollouts themselves. Column names are snake_case so
 * that SQL over the shards (DuckDB, Spark, Trino, Polars) reads them as they are.
 */
export interface IndexRow {
  /** The input file, relative to the named run directory (as given, for a named file). */
  file: string;
  /** 1-based line in that file. */
  line: number;
  /** Byte offset of the line in the uncompressed file, and its length without the newline. */
  offset: number;
  length: number;
  task_id: string;
  rollout_id: string;
  attempt_id: string | null;
  /** Resolved with §2's default (`task_id@policy_version`). */
  group_id: string;
  policy_version: string | null;
  training_step: number | null;
  /** Where `training_step` came from (§9 asks a reader to say which it used). */
  training_step_from: TrainingStepSource | null;
  termination: string;
  in_signal: boolean;
  reward: number | null;
  /** The adapter that read the line (`v1` for Trajscope's own format). */
  source_format: string;
  segments: number;
  steps: number;
  /** Sum of every segment's generated tokens (the response length). */
  generated_tokens: number;
  /** Length of the longest context (`input_ids`) the model saw. */
  context_tokens: number;
  /** Generated tokens that carry loss (segment loss masks). */
  trained_tokens: number;
  regressions: number;
  errors: number;
  warnings: number;
  /** Distinct finding codes of the rollout, sorted (SQL: `list_contains(finding_codes, 'W_HIT_MAX_TOKENS')`). */
  finding_codes: string[];
  /** Some generation was cut at `sampling.max_new_tokens` (W_HIT_MAX_TOKENS). */
  truncated: boolean;
  /** §10, null without a `training` record; the five statistics are null when n = 0. */
  mismatch_n: number | null;
  mismatch_mean_abs: number | null;
  mismatch_max_abs: number | null;
  mismatch_ratio_mean: number | null;
  mismatch_ratio_clip_frac: number | null;
  mismatch_kl_k3: number | null;
  /** Wall-clock bounds (§2) in epoch milliseconds, null when absent or unparseable. */
  started_at: number | null;
  ended_at: number | null;
  /**
   * A failing rollout's signature (docs/failure-modes.md): `termination[ (verdict)] · source: masked line`,
   * null for a rollout that earned its reward. Rollouts of one failure mode share it, or its template.
   */
  failure_mode: string | null;
  /**
   * The signature's other facts, `last:<tool>`, `regression:<kind>`, `code:<code>`, joined by spaces (null
   * when no failure). A string, not a list: a list column costs the run page a fifth more to decode
   * (SQL: `string_split(failure_features, ' ')`).
   */
  failure_features: string | null;
}

type TrainingStepSource = 'record' | 'file_name' | 'policy_order';

type ParquetType = 'STRING' | 'INT32' | 'INT64' | 'DOUBLE' | 'BOOLEAN' | 'TIMESTAMP' | 'STRING_LIST';

/** The columns in file order, with their Parquet type and whether a null is allowed. */
export const INDEX_COLUMNS: readonly { name: keyof IndexRow; type: ParquetType; nullable: boolean }[] = [
  { name: 'file', type: 'STRING', nullable: false },
  { name: 'line', type: 'INT32', nullable: false },
  { name: 'offset', type: 'INT64', nullable: false },
  { name: 'length', type: 'INT64', nullable: false },
  { name: 'task_id', type: 'STRING', nullable: false },
  { name: 'rollout_id', type: 'STRING', nullable: false },
  { name: 'attempt_id', type: 'STRING', nullable: true },
  { name: 'group_id', type: 'STRING', nullable: false },
  { name: 'policy_version', type: 'STRING', nullable: true },
  { name: 'training_step', type: 'INT32', nullable: true },
  { name: 'training_step_from', type: 'STRING', nullable: true },
  { name: 'termination', type: 'STRING', nullable: false },
  { name: 'in_signal', type: 'BOOLEAN', nullable: false },
  { name: 'reward', type: 'DOUBLE', nullable: true },
  { name: 'source_format', type: 'STRING', nullable: false },
  { name: 'segments', type: 'INT32', nullable: false },
  { name: 'steps', type: 'INT32', nullable: false },
  { name: 'generated_tokens', type: 'INT32', nullable: false },
  { name: 'context_tokens', type: 'INT32', nullable: false },
  { name: 'trained_tokens', type: 'INT32', nullable: false },
  { name: 'regressions', type: 'INT32', nullable: false },
  { name: 'errors', type: 'INT32', nullable: false },
  { name: 'warnings', type: 'INT32', nullable: false },
  { name: 'finding_codes', type: 'STRING_LIST', nullable: false },
  { name: 'truncated', type: 'BOOLEAN', nullable: false },
  { name: 'mismatch_n', type: 'INT32', nullable: true },
  { name: 'mismatch_mean_abs', type: 'DOUBLE', nullable: true },
  { name: 'mismatch_max_abs', type: 'DOUBLE', nullable: true },
  { name: 'mismatch_ratio_mean', type: 'DOUBLE', nullable: true },
  { name: 'mismatch_ratio_clip_frac', type: 'DOUBLE', nullable: true },
  { name: 'mismatch_kl_k3', type: 'DOUBLE', nullable: true },
  { name: 'started_at', type: 'TIMESTAMP', nullable: true },
  { name: 'ended_at', type: 'TIMESTAMP', nullable: true },
  { name: 'failure_mode', type: 'STRING', nullable: true },
  { name: 'failure_features', type: 'STRING', nullable: true },
];

/**
 * Rows per Parquet row group: 2,000 in a shard's first, 10,000 in each of the others. A reader can
 * decode a shard one row group at a time, and the run page draws its first chart from a shard's first
 * group instead of waiting for all 100,000 rows; a small first group is decoded sooner (2,000 rows in a
 * cold worker: 50-60 ms against 140-170 for 10,000, issue 25). Groups of 10,000 still compress well and
 * are what DuckDB and Spark split a scan on.
 */
const INDEX_ROW_GROUP_ROWS: readonly number[] = [2_000, 10_000];

/**
 * Bumped when a column changes meaning or is added (2: `failure_mode`, `failure_features`; 3: `failure_features` a string); a reader refuses
 * shards of another version rather than misread them, and `index` rebuilds them (it is in optionsKeyOf).
 */
export const INDEX_VERSION = 3;
export const INDEX_VERSION_KEY = 'trajscope.index_version';

type SchemaElement = NonNullable<Parameters<typeof parquetWriteBuffer>[0]['schema']>[number];

function schemaOf(col: (typeof INDEX_COLUMNS)[number]): SchemaElement[] {
  const repetition_type = col.nullable ? 'OPTIONAL' : 'REQUIRED';
  const { name } = col;
  switch (col.type) {
    case 'STRING':
      return [{ name, type: 'BYTE_ARRAY', converted_type: 'UTF8', repetition_type }];
    case 'TIMESTAMP':
      return [{ name, type: 'INT64', converted_type: 'TIMESTAMP_MILLIS', repetition_type }];
    case 'STRING_LIST':
      // The standard three-level LIST, which DuckDB, Spark and Polars all read as list<string>.
      return [
        { name, repetition_type, converted_type: 'LIST', num_children: 1 },
        { name: 'list', repetition_type: 'REPEATED', num_children: 1 },
        { name: 'element', type: 'BYTE_ARRAY', converted_type: 'UTF8', repetition_type: 'REQUIRED' },
      ];
    default:
      return [{ name, type: col.type, repetition_type }];
  }
}

function columnData(rows: readonly IndexRow[], col: (typeof INDEX_COLUMNS)[number]): unknown[] {
  const values = rows.map((r) => r[col.name]);
  if (col.type === 'INT64') return values.map((v) => BigInt(v as number));
  if (col.type === 'TIMESTAMP') return values.map((v) => (v === null ? null : new Date(v as number)));
  return values;
}

/**
 * One shard as Parquet bytes. `meta` goes into the file's key-value metadata (the source file's size and
 * what was indexed of it, so an unchanged shard is reused and a grown file continues from its last line).
 * `rowGroupRows` (one size, or the first groups' sizes and then the last one's for the rest) is for tests
 * that need several row groups of a few rows.
 */
export function encodeIndexShard(
  rows: readonly IndexRow[],
  meta: Record<string, string> = {},
  rowGroupRows: number | readonly number[] = INDEX_ROW_GROUP_ROWS,
): ArrayBuffer {
  const schema: SchemaElement[] = [{ name: 'root', num_children: INDEX_COLUMNS.length }, ...INDEX_COLUMNS.flatMap(schemaOf)];
  return parquetWriteBuffer({
    columnData: INDEX_COLUMNS.map((col) => ({ name: col.name, data: columnData(rows, col) as never })),
    schema,
    rowGroupSize: typeof rowGroupRows === 'number' ? rowGroupRows : [...rowGroupRows],
    kvMetadata: [{ key: INDEX_VERSION_KEY, value: String(INDEX_VERSION) }, ...Object.entries(meta).map(([key, value]) => ({ key, value }))],
    createdBy: 'trajscope',
  });
}

function valueFrom(col: (typeof INDEX_COLUMNS)[number], v: unknown): unknown {
  if (v === null || v === undefined) {
    if (col.nullable) return null;
    throw new Error(`run index: column ${col.name} is missing`);
  }
  const ok = (fits: boolean, value: unknown) => {
    if (!fits) throw new Error(`run index: column ${col.name} holds ${typeof v}, not ${col.type}`);
    return value;
  };
  switch (col.type) {
    case 'STRING':
      return ok(typeof v === 'string', v);
    case 'BOOLEAN':
      return ok(typeof v === 'boolean', v);
    case 'INT32':
    case 'DOUBLE':
      return ok(typeof v === 'number', v);
    case 'INT64':
      return ok(typeof v === 'bigint' || typeof v === 'number', Number(v));
    case 'TIMESTAMP':
      return ok(v instanceof Date || typeof v === 'number', v instanceof Date ? v.getTime() : v);
    case 'STRING_LIST':
      return ok(Array.isArray(v) && v.every((e) => typeof e === 'string'), v);
  }
}

/**
 * A row as a Parquet reader returns it (int64 as bigint, timestamps as Date) back in the shape written;
 * a missing or mistyped column is an error naming it.
 */
export function indexRowFrom(obj: Record<string, unknown>): IndexRow {
  const row: Partial<Record<keyof IndexRow, unknown>> = {};
  for (const col of INDEX_COLUMNS) row[col.name] = valueFrom(col, obj[col.name]);
  return row as IndexRow;
}
