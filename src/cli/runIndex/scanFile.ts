import { createHash } from 'node:crypto';
import { mkdir, open, rename, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { LineResult } from '../../format';
import { encodeIndexShard, type IndexRow } from '../../format/runIndex/columns';
import type { RunManifest } from '../../format/runIndex/manifest';
import { type ReadOptions, readJsonlFile } from '../readFile';
import { LineSpans } from './lineSpans';
import { fileNameStep, indexRow, type RowOptions } from './rows';

export type FileEntry = RunManifest['files'][number];
type Shard = FileEntry['shards'][number];

/** What one file's indexing is asked to do: all of it, or its tail from a line already indexed. */
export interface ScanTask {
  /** Where to read the file. */
  path: string;
  /** Its name in the index (`file` column). */
  file: string;
  /** The index directory; shards go under `shards/`. */
  outDir: string;
  /** Continue a grown plain file at this line and byte (the start of the first line not yet indexed). */
  resume?: { line: number; byte: number };
  shardRows: number;
  read: ReadOptions;
  rows: RowOptions;
}

export interface ScanResult {
  shards: Shard[];
  parse_errors: FileEntry['parse_errors'];
  /** Lines read (blank ones included), counted from the file's start. */
  lines: number;
  /** Lines that ended in a newline, and the byte after the last newline: where a grown file resumes. */
  complete_lines: number;
  complete_bytes: number;
  gzip: boolean;
  format: string | null;
  /** Policy versions in order of first appearance in the read part (for the run-wide policy order). */
  policy_versions: string[];
  /** Rows that neither the record nor the file name gives a training step. */
  unstepped: number;
  /** The file is of no known format (lint's exit-2 message), or null. */
  unsupported: string | null;
}

/** Bytes a resumed read checks at the file's start and before the resume point: 64 KiB each. */
const CHECK_BYTES = 64 * 1024;

/**
 * A hash of the file's first bytes and of those just before `end`: unchanged when the file only grew
 * past `end`, different when it was replaced (a writer that rewrites a file in place keeping both of
 * those 64 KiB windows is the one case taken for growth).
 */
export async function tailCheck(path: string, end: number): Promise<string> {
  const handle = await open(path, 'r');
  try {
    const hash = createHash('sha256');
    const head = Buffer.alloc(Math.min(CHECK_BYTES, end));
    await handle.read(head, 0, head.length, 0);
    hash.update(head);
    const from = Math.max(head.length, end - CHECK_BYTES);
    const tail = Buffer.alloc(end - from);
    await handle.read(tail, 0, tail.length, from);
    hash.update(tail);
    return hash.digest('hex').slice(0, 32);
  } finally {
    await handle.close();
  }
}

/** A safe relative directory for a file's shards: no `..`, no leading `/`. */
function shardDir(file: string): string {
  return file
    .split(/[\\/]+/)
    .filter((p) => p !== '' && p !== '.')
    .map((p) => (p === '..' ? '__up__' : p.replace(/[^\w.@+=-]/g, '_')))
    .join('/');
}

/**
 * Indexes one file (or its tail) in one pass with lint's reader (`readJsonlFile`: gzip, adapters, line
 * limit): each rollout becomes a row, each bad line a parse error; rows go out in shards of at most
 * `shardRows`. An unterminated last line gets a shard of its own, so a grown file drops just that shard
 * and reads the line again whole. Each shard is written to a temporary name and renamed: a reader never
 * sees half a shard. Shard names carry a stamp, so a re-index never overwrites a shard an older manifest names.
 */
export async function scanFile(task: ScanTask): Promise<ScanResult> {
  const firstLine = task.resume?.line ?? 1;
  const spans = new LineSpans(firstLine, task.resume?.byte ?? 0);
  const stepFromName = fileNameStep(task.file);
  const stamp = `${Date.now().toString(36)}${process.pid.toString(36)}`;
  const dir = shardDir(task.file);
  const shards: Shard[] = [];
  const parseErrors: FileEntry['parse_errors'] = [];
  const policies = new Set<string>();
  let unstepped = 0;
  let rows: { row: IndexRow; whole: boolean }[] = [];
  const watch = { current: (): string | null => null };
  let lastLine = firstLine - 1;
  const writes: Promise<void>[] = [];

  const flush = (toLine: number, toByte: number) => {
    if (rows.length === 0 && toLine < lastLine + 1) return;
    const fromLine = lastLine + 1;
    const fromByte = shards.at(-1)?.to_byte ?? task.resume?.byte ?? 0;
    const format = watch.current() ?? 'v1';
    const batch = rows.map(({ row, whole }) => ({ ...row, source_format: format, ...(whole ? { offset: 0, length: spans.bytes } : {}) }));
    rows = [];
    lastLine = toLine;
    if (batch.length === 0) return;
    const name = `shards/${dir}/L${String(fromLine).padStart(9, '0')}-${String(toLine).padStart(9, '0')}.${stamp}.parquet`;
    shards.push({ path: name, rows: batch.length, from_line: fromLine, to_line: toLine, from_byte: fromByte, to_byte: toByte });
    const meta = { 'trajscope.file': task.file, 'trajscope.from_line': String(fromLine), 'trajscope.to_line': String(toLine) };
    writes.push(writeAtomic(join(task.outDir, name), new Uint8Array(encodeIndexShard(batch, meta))));
  };

  const onLine = (r: LineResult) => {
    const line = r.value.line + firstLine - 1;
    if (r.kind === 'error') {
      parseErrors.push({ line, code: r.value.code, message: r.value.message });
      return;
    }
    const whole = !spans.isJsonLine(line);
    const row = indexRow({ ...r.value, file: task.file, line }, spans.span(line), task.file, stepFromName, task.rows);
    if (row.training_step === null) unstepped++;
    if (row.policy_version !== null) policies.add(row.policy_version);
    rows.push({ row, whole });
    // Cut only after a complete line, so every shard ends on a line boundary.
    if (rows.length >= task.shardRows && spans.endOf(line) !== null) flush(line, spans.endOf(line) ?? spans.bytes);
  };

  const summary = await readJsonlFile(
    task.path,
    (r) => {
      onLine(r);
    },
    task.read,
    {
      name: task.file,
      ...(task.resume ? { start: task.resume.byte } : {}),
      onBytes: (chunk) => {
        spans.push(chunk);
      },
      format: watch,
    },
  );
  spans.end();
  const complete = spans.completeLines + firstLine - 1;
  const tailStart = spans.endOf(complete) ?? 0;
  // Rows of complete lines, then (alone) the row of an unterminated last line.
  const tail = rows.filter(({ row }) => row.line > complete);
  rows = rows.filter(({ row }) => row.line <= complete);
  flush(complete, tailStart);
  rows = tail;
  flush(complete + (spans.bytes > tailStart ? 1 : 0), spans.bytes);
  await Promise.all(writes);
  return {
    shards,
    parse_errors: parseErrors,
    lines: summary.lines + firstLine - 1,
    complete_lines: complete,
    complete_bytes: tailStart,
    gzip: summary.gzip,
    format: summary.format,
    policy_versions: [...policies],
    unstepped,
    unsupported: summary.unsupported,
  };
}

export async function writeAtomic(path: string, bytes: Uint8Array | string): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  const tmp = `${path}.tmp-${process.pid}-${Math.random().toString(36).slice(2)}`;
  await writeFile(tmp, bytes);
  await rename(tmp, path);
}
