import { lstat, realpath, stat } from 'node:fs/promises';
import { basename, relative, resolve } from 'node:path';
import { describeDirectory, type ReadOptions } from '../../format';
import { CONVERTED_DIR, type RunManifest } from '../../format/runIndex/manifest';
import { convertToFile } from '../convert';
import { layoutWords, listingDigest, listTraceDirectory, type TraceListing } from '../traceDirectory';
import { type Input, toPosix } from './inputs';
import { fillInIndex, insideIndex, removeOwnShard } from './ownFiles';

/*
 * `trajscope index` of a directory whose files together are traces (docs/formats.md, "Directories as
 * traces"): no one file's bytes are a rollout there, so the directory is converted, as `trajscope convert
 * DIR` converts it (`convertToFile`), into `traces/<name>.jsonl` inside the index, and that copy is what is
 * indexed: every row's span is a line of it. The manifest names the copy as the entry's `file` under a
 * `source_base` of '' (the index folder itself), so the page's range reads find it, and says where it came
 * from (`converted_from`). A copy is made again only when the directory's listing changed.
 */

type ConvertedFrom = NonNullable<RunManifest['files'][number]['converted_from']>;

/** Failed files kept in the manifest; the count says how many there were in all. */
const KEPT_ERRORS = 200;

/** A named directory found to hold trace layouts. */
export interface TraceDirectoryInput {
  /** As named on the command line. */
  given: string;
  listing: TraceListing;
}

/** A converted copy to index: where it is, its name in the index, where it came from, and whether it is new. */
export interface ConvertedInput extends Input {
  converted_from: ConvertedFrom;
  /** Written in this pass (index it whole: nothing of an older copy's rows carries over). */
  fresh: boolean;
}

/** Thrown when nothing named holds trajectory files or a trace layout; `described` says what each directory holds. */
export class NothingToIndex extends Error {
  constructor(
    message: string,
    readonly described: string,
  ) {
    super(message);
  }
}

/** The named directories that hold a trace layout (as `lint DIR` would read them), listed once. */
export async function traceDirectoriesOf(paths: readonly string[]): Promise<TraceDirectoryInput[]> {
  const out: TraceDirectoryInput[] = [];
  for (const given of paths) {
    if (!(await stat(given).catch(() => null))?.isDirectory()) continue;
    // Too many files to be one run's traces (listTraceDirectory's limit): a run directory, listed as ever.
    const listing = await listTraceDirectory(given).catch(() => null);
    if (listing?.found) out.push({ given, listing });
  }
  return out;
}

/** What each named directory holds, when none of them gave a file to index: lint's one line per directory. */
export async function nothingToIndex(paths: readonly string[], e: unknown): Promise<unknown> {
  if (!(e instanceof Error) || !/^no trajectory files/.test(e.message)) return e;
  const lines: string[] = [];
  for (const given of paths) {
    if (!(await stat(given).catch(() => null))?.isDirectory()) continue;
    const listing = await listTraceDirectory(given).catch(() => null);
    if (listing) lines.push(`${given}: ${describeDirectory(listing.files, listing.links)}`);
  }
  return lines.length === 0 ? e : new NothingToIndex(e.message, lines.join('\n'));
}

/** A plain file name from the directory's own name ("conversations", "2026-07-01__12-00-00"). */
function copyName(dir: TraceDirectoryInput, taken: Set<string>): string {
  const stem =
    basename(dir.listing.root)
      .replace(/[^\w.@+=-]/g, '_')
      .replace(/^\.+/, '') || 'trace';
  let name = `${CONVERTED_DIR}/${stem}.jsonl`;
  for (let k = 2; taken.has(name); k++) name = `${CONVERTED_DIR}/${stem}-${k}.jsonl`;
  taken.add(name);
  return name;
}

/**
 * Each trace directory's converted copy inside the index: the old one kept when the directory's digest,
 * its path and the copy on disk (size and time, reached without a link) are as the old manifest says,
 * else written anew. A directory that converts to nothing readable (`--from` of another format) is in
 * `unsupported`, with no copy.
 */
export async function convertTraceDirectories(
  dirs: readonly TraceDirectoryInput[],
  outDir: string,
  previous: ReadonlyMap<string, RunManifest['files'][number]>,
  read: ReadOptions,
): Promise<{ inputs: ConvertedInput[]; unsupported: { file: string; why: string }[] }> {
  const inputs: ConvertedInput[] = [];
  const unsupported: { file: string; why: string }[] = [];
  const taken = new Set<string>();
  // The index may sit inside the directory (not as a dot-name): its own files are no change of it.
  const realOut = await realpath(outDir);
  for (const dir of dirs) {
    const file = copyName(dir, taken);
    const path = await insideIndex(outDir, file, { converted: true });
    const from = toPosix(relative(outDir, dir.listing.root)) || '.';
    const digest = await listingDigest(dir.listing, realOut);
    const layouts = dir.listing.found?.layouts ?? [];
    const before = previous.get(file);
    const copy = await lstat(path).catch(() => null);
    const kept =
      before?.converted_from?.digest === digest &&
      before.converted_from.dir === from &&
      copy?.isFile() &&
      copy.size === before.size &&
      copy.mtimeMs === before.mtime_ms;
    if (kept && before.converted_from) {
      inputs.push({ path, file, converted_from: before.converted_from, fresh: false });
      continue;
    }
    const errors: ConvertedFrom['errors'] = [];
    const refused: string[] = [];
    // Its rollouts and failures are named by the copy's name and the path within the directory, as the
    // index names run files (relative to what was named), never by where this machine keeps it.
    const name = file.slice(`${CONVERTED_DIR}/`.length, -'.jsonl'.length);
    const counts = await fillInIndex(outDir, file, (tmp) =>
      convertToFile([{ path: dir.listing.root, name }], tmp, read, {
        failed: (e, n) => {
          if (n <= KEPT_ERRORS) errors.push(e);
        },
        said: () => {},
        unreadable: (_input, why) => refused.push(why),
      }),
    );
    if (counts.unreadable > 0) {
      unsupported.push({
        file: dir.given,
        why: refused.join('; ') || `${layoutWords(dir.listing.found ?? { layouts, units: [] })}: not read`,
      });
      await removeOwnShard(outDir, file);
      continue;
    }
    inputs.push({ path, file, converted_from: { dir: from, layouts, digest, errors, failed: counts.failed }, fresh: true });
  }
  return { inputs, unsupported };
}

/** Why trace directories cannot be indexed with what else was named, or null. */
export function mixedInputsProblem(dirs: readonly TraceDirectoryInput[], paths: readonly string[], base?: string): string | null {
  const others = paths.filter((p) => !dirs.some((d) => resolve(d.given) === resolve(p)));
  const first = dirs[0];
  if (!first) return null;
  const what = `${first.given} is ${layoutWords(first.listing.found ?? { layouts: [], units: [] })}, converted into the index`;
  if (others.length > 0)
    return `${what}: index it apart from ${others.join(', ')} (its rollouts are read from the index, theirs from the run)`;
  if (base !== undefined) return `${what}: --base names files of a run and does not apply to it`;
  return null;
}
