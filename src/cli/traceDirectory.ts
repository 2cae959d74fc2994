import { createHash } from 'node:crypto';
import { type FileHandle, lstat, open, readdir, realpath } from 'node:fs/promises';
import { join, sep } from 'node:path';
import {
  describeDirectory,
  detectTraceDirectory,
  type FileBytes,
  formatCount,
  LAYOUT_INFO,
  type LineResult,
  type ReadFile,
  type ReadOptions,
  readTraceDirectory,
  type TraceDirectory,
} from '../format';
import { OPEN_FLAGS, reachesWithoutLinks } from './noLinks';
import type { ReadSummary } from './readFile';

/** Folders below the named directory that are listed: a jobs folder's job, trial, `agent/` and its logs. */
const MAX_DEPTH = 8;
/** Files listed before giving up: a directory this large is not one run's traces (a home folder, a disk). */
const MAX_FILES = 500_000;
/** The largest file read (whole: every file of a layout is one JSON document), as a multi-line document's limit. */
const FILE_LIMIT = 256 * 1024 * 1024;

interface Listing {
  /** Regular files, directory-relative, '/'-separated, sorted. */
  files: string[];
  /** Symbolic links met (never followed). */
  links: number;
}

/**
 * The regular files under a directory, reached through real subdirectories only: a symbolic link inside it
 * is counted and never followed (wherever it points, in or out), and dot-names (`.git`, editor state) are
 * skipped, as `view` serves a directory (src/cli/server/catalog.ts). Depth-first with an explicit stack.
 */
async function listDirectory(root: string, given: string): Promise<Listing> {
  const files: string[] = [];
  let links = 0;
  const stack: string[][] = [[]];
  while (stack.length > 0) {
    const rel = stack.pop() ?? [];
    const entries = await readdir(join(root, ...rel), { withFileTypes: true }).catch(() => []);
    for (const e of entries) {
      if (e.name.startsWith('.')) continue;
      if (e.isSymbolicLink()) links++;
      else if (e.isDirectory() && rel.length < MAX_DEPTH) stack.push([...rel, e.name]);
      else if (e.isFile()) files.push([...rel, e.name].join('/'));
      if (files.length > MAX_FILES) throw new Error(`${given} holds more than ${formatCount(MAX_FILES)} files: not one run's traces`);
    }
  }
  return { files: files.sort(), links };
}

/** Reads one listed file, refusing anything reached through a link (a file or folder swapped for one since). */
async function readInside(root: string, path: string): Promise<FileBytes> {
  const rel = path.split('/');
  // Paths come from the listing; a part that climbs or names nothing is refused all the same.
  if (rel.some((p) => p === '' || p === '.' || p === '..')) return { error: 'not a path inside the directory: not read' };
  let handle: FileHandle;
  try {
    handle = await open(join(root, ...rel), OPEN_FLAGS);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    return {
      error: code === 'ELOOP' ? 'a symbolic link: not followed' : code === 'ENOENT' ? 'gone since the directory was listed' : String(e),
    };
  }
  try {
    const s = await handle.stat();
    if (!s.isFile()) return { error: 'not a regular file' };
    if (!(await reachesWithoutLinks(handle, root, rel, s))) return { error: 'reached through a symbolic link: not read' };
    if (s.size > FILE_LIMIT) return { error: `larger than ${FILE_LIMIT / 1024 / 1024} MiB, the limit of a file read whole: not read` };
    return { bytes: await handle.readFile() };
  } finally {
    await handle.close();
  }
}

/** The layouts a directory was found to hold, in words: "a Harbor job and a tau2-bench results directory". */
export function layoutWords(found: TraceDirectory): string {
  return found.layouts.map((l) => LAYOUT_INFO[l].label).join(' and ');
}

/** A directory listed as `readDirectory` lists it, with the trace layouts found in it (null: none). */
export interface TraceListing {
  /** The directory's real path (the named path may be a link: the user named it). */
  root: string;
  /** Its regular files, directory-relative, '/'-separated, sorted; dot-names and links left out. */
  files: string[];
  /** Symbolic links met (never followed). */
  links: number;
  found: TraceDirectory | null;
}

/** Lists a directory and looks for trace layouts in it; rejects only when it cannot be listed at all. */
export async function listTraceDirectory(dir: string): Promise<TraceListing> {
  const root = await realpath(dir);
  const listing = await listDirectory(root, dir);
  const found = await detectTraceDirectory(listing.files, (path) => readInside(root, path));
  return { root, ...listing, found };
}

/**
 * A digest of a listing's names, sizes and modification times: a converted copy of the directory
 * (`index`, `view`) is made again when it changes. Files under `skip` (an index folder written inside the
 * directory, not a dot-name) are left out, or writing the copy would change the digest it is kept by.
 */
export async function listingDigest(listing: TraceListing, skip?: string): Promise<string> {
  const hash = createHash('sha256');
  for (const file of listing.files) {
    const path = join(listing.root, ...file.split('/'));
    if (skip !== undefined && path.startsWith(skip + sep)) continue;
    // A file gone since the listing is a change too: it hashes as absent.
    const s = await lstat(path).catch(() => null);
    hash.update(`${JSON.stringify([file, s?.size ?? -1, s?.mtimeMs ?? -1])}\n`);
  }
  return hash.digest('hex').slice(0, 32);
}

/**
 * Reads a directory whose files together are traces (docs/formats.md, "Directories as traces"): an
 * OpenHands SDK conversation folder, a Harbor job (a folder per trial) or tau2-bench's results directory,
 * one rollout per conversation, trial or simulation, through the converters the formats already have.
 * Results are named `name` + each trace's directory-relative main file (`name` is '' by default: the names
 * are directory-relative), at line 1. A directory that holds none of these is `unsupported`, with one line
 * saying what it holds (`lint` prints it and exits 2). `--from NAME` other than the layout's own format, or
 * a field mapping, does not apply to a directory: that is said the same way. Only the listed regular files
 * are read, none through a symbolic link. Rejects only when the directory cannot be listed at all.
 */
export async function readDirectory(
  dir: string,
  onLine: (r: LineResult) => void,
  options: ReadOptions = {},
  name = '',
): Promise<ReadSummary> {
  const listing = await listTraceDirectory(dir);
  const { root, found } = listing;
  const read: ReadFile = (path) => readInside(root, path);
  const summary = (lines: number, unsupported: string | null): ReadSummary => {
    // A layout found but not read (a --from that does not apply) still says which: readPath reads a
    // directory file by file only when it holds no layout at all.
    const first = found?.layouts[0];
    return { lines, format: first ? LAYOUT_INFO[first].format : null, metadata: false, unsupported, gzip: false };
  };
  if (found === null) return summary(0, describeDirectory(listing.files, listing.links));
  const from = options.from ?? 'auto';
  if (from !== 'auto' && !found.layouts.some((l) => LAYOUT_INFO[l].format === from)) {
    const formats = found.layouts.map((l) => LAYOUT_INFO[l].format).join(', ');
    return summary(0, `${layoutWords(found)}, read as ${formats}: --from ${from} does not apply to it (name its files to read them so)`);
  }
  const prefix = name === '' || name.endsWith('/') ? name : `${name}/`;
  return summary(await readTraceDirectory(found, read, onLine, prefix), null);
}
