import { type AsyncBuffer, type ColumnData, type FileMetaData, parquetMetadata, parquetRead } from 'hyparquet';
import {
  type CountColumn,
  count32,
  DICTS,
  type DictColumn,
  NO_STEP,
  NUMERIC,
  RUN_VIEW_COLUMNS,
  RunColumns,
  type ShardPart,
  type Typed,
} from './runColumns';
import type { ArrivingShard } from './shardBytes';

/*
 * Reading a run-index shard's Parquet bytes into columns (hyparquet): apart from runColumns.ts, because the
 * page's own thread never decodes a shard (shard.worker does, and decodeHere imports this where no worker
 * can start), so hyparquet stays out of the page's startup script (issue 25).
 */

type Column = (typeof RUN_VIEW_COLUMNS)[number];
type Values = ArrayLike<unknown>;

const num = (v: unknown): number => (typeof v === 'bigint' ? Number(v) : typeof v === 'number' ? v : Number.NaN);
const nullableNum = (v: unknown): number => (v === null || v === undefined ? Number.NaN : num(v));

const fill = (a: Typed, values: Values, at: number, f: (v: unknown) => number) => {
  for (let i = 0; i < values.length; i++) a[at + i] = f(values[i]);
};
const fillDict = (d: DictColumn, values: Values, at: number) => {
  for (let i = 0; i < values.length; i++) {
    // Coded before `d.codes` is read: a new value may widen it.
    const code = d.code((values[i] as string | null) ?? null);
    d.codes[at + i] = code;
  }
};
const flag = (v: unknown) => (v === true ? 1 : 0);
const count = (v: unknown) => count32(num(v));
/** A count column's chunk, widened to its largest value (a negative or missing count reads as 0). */
const fillCounts = (c: RunColumns, key: CountColumn, values: Values, at: number) => c.setCounts(key, Array.from(values, count), at);

function fillCodes(c: RunColumns, values: Values, at: number): void {
  for (let i = 0; i < values.length; i++) {
    const codes = (values[i] as string[] | null) ?? [];
    // The set's id first: a new set may widen `c.codeSet`.
    const id = codes.length === 0 ? 0 : c.setOf(codes.map((code) => c.codeIndex(code)));
    c.codeSet[at + i] = id;
  }
}

/** How each read column is stored: one decoded column chunk at rows `at ...`. */
const STORE: Record<Column, (c: RunColumns, values: Values, at: number) => void> = {
  file: (c, v, at) => fillDict(c.file, v, at),
  task_id: (c, v, at) => fillDict(c.task, v, at),
  attempt_id: (c, v, at) => fillDict(c.attempt, v, at),
  group_id: (c, v, at) => fillDict(c.group, v, at),
  policy_version: (c, v, at) => fillDict(c.policy, v, at),
  termination: (c, v, at) => fillDict(c.termination, v, at),
  source_format: (c, v, at) => fillDict(c.format, v, at),
  failure_mode: (c, v, at) => fillDict(c.failure, v, at),
  failure_features: (c, v, at) => fillDict(c.features, v, at),
  rollout_id: (c, v, at) => {
    for (let i = 0; i < v.length; i++) {
      const id = v[i];
      if (id instanceof Uint8Array) c.rolloutId.setBytes(at + i, id);
      else c.rolloutId.set(at + i, String(id));
    }
  },
  line: (c, v, at) => fill(c.line, v, at, num),
  offset: (c, v, at) => fill(c.offset, v, at, num),
  length: (c, v, at) => fill(c.length, v, at, num),
  training_step: (c, v, at) => fill(c.step, v, at, (x) => (x === null || x === undefined ? NO_STEP : num(x))),
  in_signal: (c, v, at) => fill(c.inSignal, v, at, flag),
  truncated: (c, v, at) => fill(c.truncated, v, at, flag),
  reward: (c, v, at) => fill(c.reward, v, at, nullableNum),
  steps: (c, v, at) => fillCounts(c, 'steps', v, at),
  generated_tokens: (c, v, at) => fillCounts(c, 'generated', v, at),
  regressions: (c, v, at) => fillCounts(c, 'regressions', v, at),
  errors: (c, v, at) => fillCounts(c, 'errors', v, at),
  warnings: (c, v, at) => fillCounts(c, 'warnings', v, at),
  mismatch_n: (c, v, at) => fill(c.mismatchN, v, at, (x) => (x === null || x === undefined ? -1 : num(x))),
  mismatch_max_abs: (c, v, at) => fill(c.mismatchMax, v, at, nullableNum),
  mismatch_kl_k3: (c, v, at) => fill(c.klK3, v, at, nullableNum),
  finding_codes: fillCodes,
};

const OTHER_COLUMNS = RUN_VIEW_COLUMNS.filter((k) => k !== 'rollout_id');
const AS_BYTES = { stringFromBytes: (bytes: Uint8Array) => bytes };

/**
 * Appends rows `rowStart ... rowEnd` of one Parquet shard (a whole number of its row groups) to the
 * columns, column chunk by column chunk: no row objects are made, so a shard of a million rows costs its
 * decoded chunks, not a million objects. A group that decodes to another count is an error naming it.
 */
async function appendRows(
  c: RunColumns,
  file: AsyncBuffer,
  metadata: FileMetaData,
  rowStart: number,
  rowEnd: number,
  name: string,
): Promise<void> {
  const rows = rowEnd - rowStart;
  c.reserve(rows);
  const at = c.n - rowStart;
  let seen = 0;
  let outside = false;
  const onChunk = (chunk: ColumnData) => {
    // Not thrown here: an error in the callback escapes the reader's promise.
    if (chunk.rowStart < rowStart || chunk.rowEnd > rowEnd) outside = true;
    if (outside) return;
    if (chunk.columnName === 'file') seen += chunk.rowEnd - chunk.rowStart;
    STORE[chunk.columnName as Column]?.(c, chunk.columnData as Values, at + chunk.rowStart);
  };
  await parquetRead({ file, metadata, rowStart, rowEnd, columns: OTHER_COLUMNS, onChunk });
  // Rollout ids as the shard's bytes: the column keeps UTF-8, so decoding each id to a string only to
  // encode it back cost most of a row group's decode (issue 25: the run page's first chart).
  await parquetRead({ file, metadata, rowStart, rowEnd, columns: ['rollout_id'], parsers: AS_BYTES, onChunk });
  if (outside || seen !== rows) throw new Error(`${name}: rows ${rowStart + 1}-${rowEnd} do not decode as one row group`);
  c.appended(c.n, rows);
}

/** The shard's row count checked against the manifest's before anything is decoded. */
function checkedRows(metadata: FileMetaData, rows: number, name: string): FileMetaData {
  const total = Number(metadata.num_rows);
  if (total > rows) throw new Error(`${name}: holds more rows than the manifest's ${rows}`);
  if (total !== rows) throw new Error(`${name}: ${total} rows, the manifest says ${rows}`);
  return metadata;
}

/** The footer held whole in the file's last bytes, or null (then it is read once the body has arrived). */
function footerIn(tail: ArrayBuffer | null): FileMetaData | null {
  if (tail === null || tail.byteLength < 8) return null;
  const length = new DataView(tail).getUint32(tail.byteLength - 8, true);
  return length + 8 <= tail.byteLength ? parquetMetadata(tail) : null;
}

/** Appends one whole shard (its bytes) to the columns; `rows` is the manifest's count. */
export async function appendShard(c: RunColumns, bytes: ArrayBuffer, rows: number, name: string): Promise<void> {
  await appendRows(c, bytes, checkedRows(parquetMetadata(bytes), rows, name), 0, rows, name);
}

/**
 * Decodes one shard a row group at a time, each group a part of its own handed to `onPart` as soon as it
 * is decoded (what a worker does): the page merges and draws a shard's first rows while the rest decode,
 * and, from a shard still arriving (its footer read first), while the rest download. `rows` is the
 * manifest's count.
 */
export async function decodeShard(
  shard: ArrayBuffer | ArrivingShard,
  rows: number,
  name: string,
  onPart: (part: ShardPart) => void,
): Promise<void> {
  const { file, tail, whole } = shard instanceof ArrayBuffer ? { file: shard, tail: null, whole: Promise.resolve(shard) } : shard;
  // The footer from whichever comes first: the file's tail read by range, or the whole file.
  const first = await Promise.race([tail, whole.then(() => null)]);
  const metadata = checkedRows(footerIn(first) ?? parquetMetadata(await whole), rows, name);
  let start = 0;
  for (const group of metadata.row_groups) {
    const n = Number(group.num_rows);
    if (n === 0) continue;
    const c = new RunColumns(n);
    await appendRows(c, file, metadata, start, start + n, name);
    onPart(partOf(c));
    start += n;
    // A task boundary between groups: decoding awaits only microtasks, so without it a shard is one long
    // task of its thread, and the next shard's download and the page's messages wait until it ends.
    await new Promise((r) => setTimeout(r, 0));
  }
  // Every byte read, the footer's too: a body cut short after the last group is still a failed read.
  await whole;
}

function partOf(c: RunColumns): ShardPart {
  const rows = c.n;
  const dicts = Object.fromEntries(DICTS.map((d) => [d, { values: c[d].values, codes: c[d].codes.slice(0, rows) }])) as ShardPart['dicts'];
  const numeric = Object.fromEntries(NUMERIC.map((k) => [k, c[k].slice(0, rows)])) as ShardPart['numeric'];
  return {
    rows,
    dicts,
    numeric,
    rolloutId: c.rolloutId.parts(rows),
    codeNames: c.codeNames,
    codeSets: c.codeSets,
    codeSet: c.codeSet.slice(0, rows),
  };
}
