import { createHash } from 'node:crypto';
import { open } from 'node:fs/promises';
import { checkWindows, type LineResult, LineSpans, type ReadOptions, type Sha256, windowsDigest } from '../../format';
import { encodeIndexShard, type IndexRow } from '../../format/runIndex/columns';
import type { RunManifest } from '../../format/runIndex/manifest';
import { readJsonlFile } from '../readFile';
import { writeInIndex } from './ownFiles';
import { fileNameStep, indexRow, type RowOptions } from './rows';

export type FileEntry = RunManifest['files'][number];
type Shard = FileEntry['shards'][number];

/** What one file's indexing is asked to do: all of it, or a part of it (its grown tail, or a stretch of a split file). */
export interface ScanTask {
  /** Where to read the file. */
  path: string;
  /** Its name in the index (`file` column). */
  file: string;
  /** The index directory; shards go under `shards/`. */
  outDir: string;
  /**
   * Read only these bytes: from `from` (a line's start) up to `to` (a later line's start, or null: the
   * file's end). `line` is the number of the line at `from`: a grown file read on from its last indexed
   * line, or the first part of a split file. It is null for a later part of a file split between jobs
   * (pool.ts): such a part is read as the rest of a v1 file, numbered from 1, and written once the parts
   * before it have been counted (`CountedPart`); its rows wait in memory until then.
   */
  part?: { from: number; to: number | null; line: number | null };
  shardRows: number;
  read: ReadOptions;
  rows: RowOptions;
}

/** A part whose first line's number was not known when it was read: how many lines it holds, and how to write it once that number is known. */
export interface CountedPart {
  lines: number;
  finish: (line: number) => Promise<ScanResult>;
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

/**
 * Bytes a resumed read checks at the file's start and before the resume point: 64 KiB each. A local
 * read, so larger than the follower's windows (src/load/follow.ts), which cost a request each append.
 */
const CHECK_BYTES = 64 * 1024;

/**
 * The digest of the file's check windows at `end` (format/read: its first bytes and those just before
 * `end`), read from disk: unchanged when the file only grew past `end`, different when it was replaced.
 */
export async function tailCheck(path: string, end: number): Promise<string> {
  const handle = await open(path, 'r');
  try {
    const { head, tail } = checkWindows(end, CHECK_BYTES);
    const read = async ({ from, to }: { from: number; to: number }) => {
      const bytes = Buffer.alloc(to - from);
      await handle.read(bytes, 0, bytes.length, from);
      return bytes;
    };
    return windowsDigest(await read(head), await read(tail), nodeSha256);
  } finally {
    await handle.close();
  }
}

const nodeSha256: Sha256 = (parts) => {
  const hash = createHash('sha256');
  for (const part of parts) hash.update(part);
  return hash.digest();
};

/** A safe relative directory for a file's shards: no `..`, no leading `/`. */
function shardDir(file: string): string {
  return file
    .split(/[\\/]+/)
    .filter((p) => p !== '' && p !== '.')
    .map((p) => (p === '..' ? '__up__' : p.replace(/[^\w.@+=-]/g, '_')))
    .join('/');
}

/**
 * Indexes one file (or a part of it) in one pass with lint's reader (`readJsonlFile`: gzip, adapters, line
 * limit): each rollout becomes a row, each bad line a parse error; rows go out in shards of at most
 * `shardRows`. An unterminated last line gets a shard of its own, so a grown file drops just that shard
 * and reads the line again whole. Each shard is written to a temporary name and renamed: a reader never
 * sees half a shard. Shard names carry a stamp, so a re-index never overwrites a shard an older manifest names.
 * Lines are counted from the part's start; `shift` turns them into the file's line numbers when shards are
 * written: at once when the part's first line number is known, else in `finish` (a `CountedPart`).
 */
export async function scanFile(task: ScanTask): Promise<ScanResult | CountedPart> {
  const known = task.part ? task.part.line : 1;
  const from = task.part?.from ?? 0;
  const to = task.part?.to ?? null;
  const spans = new LineSpans(1, from);
  const stepFromName = fileNameStep(task.file);
  const stamp = `${Date.now().toString(36)}${process.pid.toString(36)}`;
  const dir = shardDir(task.file);
  const shards: Shard[] = [];
  const parseErrors: { line: number; code: string; message: string }[] = [];
  const policies = new Set<string>();
  let unstepped = 0;
  let rows: { row: IndexRow; whole: boolean }[] = [];
  const watch = { current: (): string | null => null };
  /** The last local line a shard (or a cut) covers. */
  let lastLine = 0;
  let lastByte = from;
  const writes: Promise<void>[] = [];
  /** Cuts not yet written because the shift is not known yet (a later part of a split file). */
  const waiting: (() => void)[] = [];
  let shift: number | null = known === null ? null : known - 1;

  /** Cuts the rows so far into one shard ending after local line `toLine` (byte `toByte`), written once the shift is known. */
  const cut = (toLine: number, toByte: number) => {
    if (rows.length === 0 && toLine < lastLine + 1) return;
    const fromLine = lastLine + 1;
    const fromByte = lastByte;
    const batch = rows;
    const format = watch.current() ?? 'v1';
    rows = [];
    lastLine = toLine;
    lastByte = toByte;
    if (batch.length === 0) return;
    const write = () => {
      const d = shift ?? 0;
      const [a, b] = [fromLine + d, toLine + d];
      const name = `shards/${dir}/L${String(a).padStart(9, '0')}-${String(b).padStart(9, '0')}.${stamp}.parquet`;
      const out = batch.map(({ row, whole }) => ({
        ...row,
        line: row.line + d,
        source_format: format,
        ...(whole ? { offset: 0, length: spans.bytes } : {}),
      }));
      const meta = { 'trajscope.file': task.file, 'trajscope.from_line': String(a), 'trajscope.to_line': String(b) };
      const data = new Uint8Array(encodeIndexShard(out, meta));
      shards.push({
        path: name,
        rows: batch.length,
        from_line: a,
        to_line: b,
        from_byte: fromByte,
        to_byte: toByte,
        bytes: data.byteLength,
      });
      writes.push(writeInIndex(task.outDir, name, data));
    };
    if (shift === null) waiting.push(write);
    else write();
  };

  const onLine = (r: LineResult) => {
    const line = r.value.line;
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
    if (rows.length >= task.shardRows && spans.endOf(line) !== null) cut(line, spans.endOf(line) ?? spans.bytes);
  };

  const summary = await readJsonlFile(task.path, onLine, task.read, {
    name: task.file,
    ...(from > 0 ? { start: from } : {}),
    ...(to !== null ? { end: to } : {}),
    ...(known === null ? { continuesV1: true } : {}),
    onBytes: (chunk) => {
      spans.push(chunk);
    },
    format: watch,
  });
  spans.end();
  const complete = spans.completeLines;
  const tailStart = spans.endOf(complete) ?? from;
  // Rows of complete lines, then (alone) the row of an unterminated last line.
  const tail = rows.filter(({ row }) => row.line > complete);
  rows = rows.filter(({ row }) => row.line <= complete);
  cut(complete, tailStart);
  rows = tail;
  cut(complete + (spans.bytes > tailStart ? 1 : 0), spans.bytes);
  const result = async (): Promise<ScanResult> => {
    for (const write of waiting.splice(0)) write();
    await Promise.all(writes);
    const d = shift ?? 0;
    return {
      shards,
      parse_errors: parseErrors.map((e) => ({ ...e, line: e.line + d })),
      lines: summary.lines + d,
      complete_lines: complete + d,
      complete_bytes: tailStart,
      gzip: summary.gzip,
      format: summary.format,
      policy_versions: [...policies],
      unstepped,
      unsupported: summary.unsupported,
    };
  };
  if (shift !== null) return result();
  return {
    lines: summary.lines,
    finish: (line: number) => {
      shift = line - 1;
      return result();
    },
  };
}
