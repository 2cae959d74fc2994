import { createHash } from 'node:crypto';
import { constants } from 'node:fs';
import { access, lstat, mkdir, open, readdir, readFile, stat } from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { DEFAULT_DRIFT_THRESHOLD, DEFAULT_IS_CAP } from '../../analysis';
import { createLineParser, DEFAULT_MAX_LINE_BYTES, type ReadOptions, stableStringify } from '../../format';
import { INDEX_VERSION } from '../../format/runIndex/columns';
import { parseRunManifest, type RunManifest } from '../../format/runIndex/manifest';
import { type Input, listInputs, toPosix } from './inputs';
import {
  checkIndexFolder,
  checkManifestPaths,
  IndexRefused,
  insideIndex,
  isOwnConvertedPath,
  isOwnShardPath,
  removeOwnShard,
  writeInIndex,
} from './ownFiles';
import { orderByPolicy } from './policyOrder';
import { MIN_PART_BYTES, type PoolTrace, scanAll } from './pool';
import type { RowOptions } from './rows';
import { type FileEntry, type ScanResult, type ScanTask, tailCheck } from './scanFile';
import { type ConvertedInput, convertTraceDirectories, mixedInputsProblem, nothingToIndex, traceDirectoriesOf } from './traceInputs';

/** Rows per shard: a few MB of Parquet, small enough to fetch whole, few enough files to list. */
export const DEFAULT_SHARD_ROWS = 100_000;

/**
 * Where `query` (and `view`) keep a run directory's own index: inside the run, hidden (dot-names are
 * never read as run files, nor served), so it moves with the run and is found without being named.
 */
export function runIndexDir(run: string): string {
  return join(run, '.trajscope', 'index');
}

/**
 * `runIndexDir`, or, when the run cannot be written (a read-only mount, a shared dataset), a directory
 * of the user's cache named by the run's absolute path (`$XDG_CACHE_HOME/trajscope/runs/<hash>`).
 */
export async function writableRunIndexDir(run: string): Promise<string> {
  const own = runIndexDir(run);
  // A run from elsewhere may carry these as links: its index would then live (and delete) wherever they point.
  for (const dir of [dirname(own), own]) {
    if ((await lstat(dir).catch(() => null))?.isSymbolicLink())
      throw new IndexRefused(`${dir} is a symbolic link: refused (an index lives in the run it indexes; remove the link to index the run)`);
  }
  try {
    await mkdir(own, { recursive: true });
    await access(own, constants.W_OK);
    return own;
  } catch {
    const cache = process.env.XDG_CACHE_HOME || join(homedir(), '.cache');
    const key = createHash('sha256').update(resolve(run)).digest('hex').slice(0, 16);
    return join(cache, 'trajscope', 'runs', key);
  }
}

export interface IndexOptions {
  /** Files and directories (a directory's trajectory files, recursively, dot-names skipped). */
  inputs: readonly string[];
  outDir: string;
  /** Names files relative to this directory (a job indexing a slice of a run's files names them as the whole run would). */
  base?: string;
  jobs: number;
  shardRows?: number;
  read?: ReadOptions;
  rows?: RowOptions;
  /** Filled with where the time went (the bench prints it). */
  trace?: IndexTrace;
  /** The smallest part a file is split into between jobs (pool.ts; default MIN_PART_BYTES): tests split small files. */
  minPartBytes?: number;
}

/** Milliseconds since `buildIndex` began at which each phase ended, and the pool's jobs and files. */
export interface IndexTrace extends PoolTrace {
  planned?: number;
  scanned?: number;
  written?: number;
}

export interface IndexOutcome {
  manifest: RunManifest;
  reused: number;
  resumed: number;
  indexed: number;
  rows: number;
  /** Files of no known format (said once each, as lint does). */
  unsupported: { file: string; why: string }[];
}

/**
 * `trajscope index`: plans each file (unchanged: keep its shards; grown plain file whose bytes before
 * the last indexed newline are unchanged: read on from there; anything else: index it whole), scans the
 * files in parallel, gives rows without any step their run-wide policy order, writes `manifest.json`
 * last (atomically), then deletes the shards no manifest names any more.
 */
export async function buildIndex(options: IndexOptions): Promise<IndexOutcome> {
  const began = performance.now();
  const trace = options.trace;
  const outDir = resolve(options.outDir);
  // A trace directory (docs/formats.md, "Directories as traces") is indexed as its converted copy, which
  // lives in the index: its rows' files are named from the index folder (traceInputs.ts).
  const traceDirs = await traceDirectoriesOf(options.inputs);
  const mixed = mixedInputsProblem(traceDirs, options.inputs, options.base);
  if (mixed) throw new Error(mixed);
  const listed =
    traceDirs.length > 0
      ? { base: outDir, inputs: [] }
      : await listInputs(options.inputs, outDir, options.base).catch(async (e: unknown) => {
          throw await nothingToIndex(options.inputs, e);
        });
  const sourceBase = toPosix(relative(outDir, listed.base));
  await mkdir(outDir, { recursive: true });
  const old = await readIndexOwnManifest(outDir);
  const optionsKey = optionsKeyOf(options.read ?? {}, options.rows ?? {});
  const same = old?.source_base === sourceBase && (old.options ?? optionsKey) === optionsKey;
  const previous = new Map((same && old ? old.files : []).map((f) => [f.file, f]));
  const converted = await convertTraceDirectories(traceDirs, outDir, previous, options.read ?? {});
  const inputs: Input[] = traceDirs.length > 0 ? converted.inputs : listed.inputs;
  const fresh = new Set(converted.inputs.filter((c) => c.fresh).map((c) => c.file));
  const convertedFrom: Record<string, ConvertedInput['converted_from']> = Object.fromEntries(
    converted.inputs.map((c) => [c.file, c.converted_from]),
  );
  const shardRows = options.shardRows ?? DEFAULT_SHARD_ROWS;
  const plans: { input: Input; size: number; mtime: number; kept: FileEntry | null; task: ScanTask | null }[] = [];
  let reused = 0;
  let resumed = 0;
  for (const input of inputs) {
    const s = await stat(input.path);
    // A new converted copy is read whole: rows of an older copy are not of its bytes.
    const before = fresh.has(input.file) ? undefined : previous.get(input.file);
    // A copy is v1 JSON Lines whatever the directory was read as (a mapping or --from applied to it already).
    const read = input.file in convertedFrom ? { maxLineBytes: options.read?.maxLineBytes } : (options.read ?? {});
    const task: ScanTask = { path: input.path, file: input.file, outDir, shardRows, read, rows: options.rows ?? {} };
    const held = before && before.size === s.size && before.mtime_ms === s.mtimeMs ? await shardsHeld(outDir, before) : null;
    if (held) {
      reused++;
      plans.push({ input, size: s.size, mtime: s.mtimeMs, kept: held, task: null });
      continue;
    }
    const from = before ? await resumePoint(input.path, before, s.size) : null;
    if (before && from) {
      resumed++;
      const kept: FileEntry = {
        ...before,
        shards: before.shards.filter((sh) => sh.to_line <= from.line - 1),
        parse_errors: before.parse_errors.filter((e) => e.line < from.line),
      };
      plans.push({ input, size: s.size, mtime: s.mtimeMs, kept, task: { ...task, part: { from: from.byte, to: null, line: from.line } } });
    } else plans.push({ input, size: s.size, mtime: s.mtimeMs, kept: null, task });
  }
  const todo = plans.filter((p) => p.task !== null);
  if (trace) trace.planned = performance.now() - began;
  const minPart = options.minPartBytes ?? MIN_PART_BYTES;
  const scanned = await scanAll(
    await Promise.all(
      todo.map(async (p) => {
        const size = p.size - (p.task?.part?.from ?? 0);
        return {
          ...(p.task as ScanTask),
          size,
          splittable: options.jobs > 1 && size >= 2 * minPart && (await splittable(p.input.path, options.read ?? {})),
        };
      }),
    ),
    options.jobs,
    trace && { began, pool: trace },
    minPart,
  );
  if (trace) trace.scanned = performance.now() - began;
  const unsupported: IndexOutcome['unsupported'] = [...converted.unsupported];
  const files: FileEntry[] = [];
  for (const plan of plans) {
    const k = todo.indexOf(plan);
    const result = k === -1 ? null : scanned[k];
    if (result?.unsupported) unsupported.push({ file: plan.input.file, why: result.unsupported });
    const entry = result ? await entryOf(plan.input, plan.size, plan.mtime, plan.kept, result) : (plan.kept as FileEntry);
    const from = convertedFrom[plan.input.file];
    files.push(from ? { ...entry, converted_from: from } : entry);
  }
  const mapping = options.read?.mapping;
  const manifest: RunManifest = { version: 1, source_base: sourceBase, options: optionsKey, ...(mapping ? { mapping } : {}), files };
  await orderByPolicy(manifest, outDir);
  await writeInIndex(outDir, 'manifest.json', `${JSON.stringify(manifest, null, 1)}\n`);
  await removeUnnamed(outDir, old, manifest);
  if (trace) trace.written = performance.now() - began;
  return {
    manifest,
    reused,
    resumed,
    indexed: todo.length - resumed,
    rows: files.reduce((n, f) => n + f.shards.reduce((m, s) => m + s.rows, 0), 0),
    unsupported,
  };
}

async function entryOf(input: Input, size: number, mtime: number, kept: FileEntry | null, r: ScanResult): Promise<FileEntry> {
  const policies = [...new Set([...(kept?.policy_versions ?? []), ...r.policy_versions])];
  return {
    file: input.file,
    size,
    mtime_ms: mtime,
    gzip: r.gzip,
    shards: [...(kept?.shards ?? []), ...r.shards],
    parse_errors: [...(kept?.parse_errors ?? []), ...r.parse_errors],
    lines: r.lines,
    format: r.format ?? kept?.format ?? null,
    complete_lines: r.complete_lines,
    complete_bytes: r.complete_bytes,
    ...(r.gzip ? {} : { check: await tailCheck(input.path, r.complete_bytes) }),
    policy_versions: policies,
    unstepped: (kept?.unstepped ?? 0) + r.unstepped,
  };
}

/**
 * The options the rows are made with, as they act: defaults filled in, so an index built by `trajscope
 * index` (which names every default) is reused by `view` and `query` (which leave them out), and the
 * other way round. A function (lint's token text for reasons) changes no row column and is left out.
 */
export function optionsKeyOf(read: ReadOptions, rows: RowOptions): string {
  const { tokenText: _tokenText, ...checks } = rows;
  const acting = {
    // Shards of another index version lack or misread columns: a new version makes every file index again.
    index_version: INDEX_VERSION,
    read: { ...read, from: read.from ?? 'auto', maxLineBytes: read.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES },
    rows: {
      ...checks,
      driftThreshold: checks.driftThreshold ?? DEFAULT_DRIFT_THRESHOLD,
      unknownAsFinished: checks.unknownAsFinished ?? false,
      isCap: checks.isCap ?? DEFAULT_IS_CAP,
    },
  };
  // Through JSON first: a key set to undefined is a key left out.
  return stableStringify(JSON.parse(JSON.stringify(acting)));
}

/** Bytes of a file's start read to find its first line. */
const FIRST_LINE_LIMIT = 4 * 2 ** 20;

/**
 * Whether a file may be split between jobs at line starts: plain JSON Lines whose first line made the
 * reader v1 (as lint's whole read would), read without a mapping or another forced format. A later part
 * is then read as the rest of a v1 file (LineParserOptions.continuesV1) and gives the same rows and errors;
 * other formats stay whole (their adapters make ids from where a record is, and may span lines).
 */
async function splittable(path: string, read: ReadOptions): Promise<boolean> {
  if (read.mapping || (read.from !== undefined && read.from !== 'auto' && read.from !== 'v1')) return false;
  if (!/\.jsonl$/i.test(path)) return false;
  const handle = await open(path, 'r');
  try {
    // Most first lines end within 256 KiB; a longer one is read on, up to the limit.
    for (let size = 256 * 1024; ; size *= 4) {
      const head = Buffer.allocUnsafe(Math.min(size, FIRST_LINE_LIMIT));
      const { bytesRead } = await handle.read(head, 0, head.length, 0);
      const nl = head.subarray(0, bytesRead).indexOf(0x0a);
      if (nl !== -1) {
        const parser = createLineParser(path, { from: read.from ?? 'auto' });
        parser.push(head.subarray(0, nl + 1));
        return parser.format === 'v1';
      }
      if (bytesRead < head.length || head.length === FIRST_LINE_LIMIT) return false;
    }
  } finally {
    await handle.close();
  }
}

/** Where a changed file is read on, or null to index it whole (not JSONL, gzip, shrunk, or its earlier bytes changed). */
async function resumePoint(path: string, before: FileEntry, size: number): Promise<{ line: number; byte: number } | null> {
  // Only JSON Lines are read on: a document (.json, .traj) or an archive (.eval) is one whole.
  if (!/\.jsonl$/i.test(path)) return null;
  if (before.gzip || before.complete_bytes === undefined || before.complete_lines === undefined || before.check === undefined) return null;
  if (size <= before.size || before.complete_bytes > size) return null;
  if ((await tailCheck(path, before.complete_bytes)) !== before.check) return null;
  return { line: before.complete_lines + 1, byte: before.complete_bytes };
}

/**
 * The entry with each shard's size as it is on disk (an index written before sizes were recorded gets
 * them now: a reader asks for a shard's footer first with it), or null when a shard is missing.
 */
async function shardsHeld(outDir: string, entry: FileEntry): Promise<FileEntry | null> {
  const shards: FileEntry['shards'] = [];
  for (const s of entry.shards) {
    const st = await lstat(await insideIndex(outDir, s.path)).catch(() => null);
    if (!st?.isFile()) return null;
    shards.push({ ...s, bytes: st.size });
  }
  return { ...entry, shards };
}

/**
 * The manifest an index folder holds, checked before any of its shards is read, kept or deleted: every
 * path it names inside the folder, reached without a link (ownFiles.ts). Null when there is none; an
 * `IndexRefused` (or a schema error) naming the entry otherwise. `view` calls it before serving a run.
 */
export async function readIndexOwnManifest(dir: string): Promise<RunManifest | null> {
  const manifest = await readManifest(dir);
  if (manifest) await checkManifestPaths(dir, manifest);
  return manifest;
}

/**
 * The manifest of an index folder, null when it has none; an error naming the first entry that is wrong
 * (a shard path outside the folder among them: `indexPathProblem`). A manifest that is a link is refused.
 */
export async function readManifest(dir: string): Promise<RunManifest | null> {
  await checkIndexFolder(dir);
  const text = await readFile(join(dir, 'manifest.json'), 'utf8').catch(() => null);
  if (text === null) return null;
  const parsed = parseRunManifest(text);
  if ('error' in parsed) {
    throw new Error(
      `${join(dir, 'manifest.json')}: ${parsed.error.replace(/^manifest\.json: /, '')}: refused, nothing read, written or deleted on its say`,
    );
  }
  return parsed.manifest;
}

/**
 * Deletes the shards the old manifest named and the new one does not, and those written but replaced in
 * the same pass (policy order; in neither manifest, found by walking `shards/`): only shards this index
 * wrote (`removeOwnShard`), never through a link, never outside the folder.
 */
export async function removeUnnamed(outDir: string, old: RunManifest | null, now: RunManifest): Promise<void> {
  // A trace directory's converted copy is the index's own file as its shards are (traceInputs.ts).
  const ownFiles = (m: RunManifest) => m.files.flatMap((f) => [...f.shards.map((s) => s.path), ...(f.converted_from ? [f.file] : [])]);
  const named = new Set(ownFiles(now));
  const stale = (old ? ownFiles(old) : []).filter((p) => !named.has(p));
  for (const p of stale) await removeOwnShard(outDir, p);
  await removeOrphans(outDir, 'shards', named);
  await removeOrphans(outDir, 'traces', named);
}

async function removeOrphans(outDir: string, rel: string, named: Set<string>): Promise<void> {
  const dir = await insideIndex(outDir, rel, { parquet: false }).catch(() => null);
  if (dir === null || !(await lstat(dir).catch(() => null))?.isDirectory()) return;
  for (const e of await readdir(dir, { withFileTypes: true }).catch(() => [])) {
    // A dirent is never followed: a link is neither a directory nor a file here, and stays.
    const path = `${rel}/${e.name}`;
    if (e.isDirectory()) await removeOrphans(outDir, path, named);
    else if (e.isFile() && (isOwnShardPath(path) || isOwnConvertedPath(path)) && !named.has(path)) await removeOwnShard(outDir, path);
  }
}
