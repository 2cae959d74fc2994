import { lstat, mkdir, realpath, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join, sep } from 'node:path';
import {
  CONVERTED_DIR,
  convertedPathProblem,
  indexPathProblem,
  type RunManifest,
  relativePathProblem,
} from '../../format/runIndex/manifest';

/**
 * What an index may touch on disk (docs/adr/0021). A run travels with its index (`RUN/.trajscope/index`),
 * so everything under the index folder is untrusted: the manifest's paths, and links planted in place of
 * `shards/`, a shard's folder or the manifest. The rules, enforced here and nowhere else:
 * - a path the manifest names stays inside the index folder: the text rule (`indexPathProblem`, shared
 *   with the page), then no link anywhere below the folder (its real path is the folder's real path
 *   joined with the name);
 * - the index deletes only shards it wrote: a path under `shards/` ending in `.parquet`, a regular file,
 *   reached without a link; and only the converted copies of trace directories it wrote, the same way
 *   (`traces/<name>.jsonl`: `convertedPathProblem`);
 * - it writes only inside its folder, never through a link.
 * The folder itself may be reached through links the user's own path holds (a home directory on another
 * mount), except the two a run could plant: `RUN/.trajscope` and `RUN/.trajscope/index` (build.ts).
 */
export class IndexRefused extends Error {}

const refuse = (indexDir: string, what: string) =>
  new IndexRefused(`${join(indexDir, 'manifest.json')}: ${what}: refused, nothing read, written or deleted on its say`);

async function isLink(path: string): Promise<boolean> {
  return (await lstat(path).catch(() => null))?.isSymbolicLink() ?? false;
}

/**
 * The index folder's own parts are what the index wrote: `shards/` a folder, `manifest.json` a file,
 * neither a link (a link in place of `shards/` would have the index delete and write Parquet files in
 * its target).
 */
export async function checkIndexFolder(indexDir: string): Promise<void> {
  for (const name of ['shards', 'manifest.json']) {
    if (await isLink(join(indexDir, name))) throw refuse(indexDir, `${name} is a symbolic link`);
  }
}

/**
 * The absolute path of `rel` (a manifest's path) inside the index folder, or an `IndexRefused` naming it:
 * outside by its text, or reached through a link (a planted `shards/x -> /elsewhere`). A path that does
 * not exist yet is inside when its nearest existing folder is.
 */
export async function insideIndex(indexDir: string, rel: string, { parquet = true, converted = false, entry = '' } = {}): Promise<string> {
  // Named as the schema names a path: the manifest's entry (its `file`), then the path.
  const name = `${entry === '' ? '' : `entry of ${JSON.stringify(entry)}: `}${JSON.stringify(rel)}`;
  const why = converted ? convertedPathProblem(rel) : parquet ? indexPathProblem(rel) : relativePathProblem(rel);
  if (why) throw refuse(indexDir, `${name} ${why}`);
  const root = await realpath(indexDir);
  const parts = rel.split('/');
  // Walk down while the parts exist; each must be what its name says (no link on the way).
  let at = root;
  for (const part of parts) {
    const next = join(at, part);
    const s = await lstat(next).catch(() => null);
    if (s === null) break;
    if (s.isSymbolicLink()) throw refuse(indexDir, `${name} goes through a symbolic link`);
    at = next;
  }
  const full = join(root, ...parts);
  if (!full.startsWith(root + sep)) throw refuse(indexDir, `${name} leaves the index folder`);
  return full;
}

/** Every shard path and converted copy of a manifest checked (`insideIndex`) before any is read, carried over or deleted. */
export async function checkManifestPaths(indexDir: string, manifest: RunManifest): Promise<void> {
  for (const f of manifest.files) {
    for (const s of f.shards) await insideIndex(indexDir, s.path, { entry: f.file });
    if (f.converted_from) await insideIndex(indexDir, f.file, { converted: true, entry: f.file });
  }
}

/** Whether a path names a converted copy this index writes (`traces/<name>.jsonl`). */
export function isOwnConvertedPath(rel: string): boolean {
  return rel.startsWith(`${CONVERTED_DIR}/`) && convertedPathProblem(rel) === null;
}

/** Whether a path names a shard this index writes (`scanFile`, `policyOrder`): under `shards/`, `.parquet`. */
export function isOwnShardPath(rel: string): boolean {
  return rel.startsWith('shards/') && indexPathProblem(rel) === null;
}

/**
 * Deletes a shard the index wrote: an own shard path (`isOwnShardPath`), a regular file reached without a
 * link. Anything else is left alone (a merged index's `parts/...` belong to their part).
 */
export async function removeOwnShard(indexDir: string, rel: string): Promise<void> {
  const converted = isOwnConvertedPath(rel);
  if (!isOwnShardPath(rel) && !converted) return;
  const full = await insideIndex(indexDir, rel, { converted }).catch(() => null);
  if (full === null) return;
  const s = await lstat(full).catch(() => null);
  if (s?.isFile()) await rm(full, { force: true });
}

/**
 * Writes `bytes` to `rel` inside the index folder atomically (a temporary file renamed over it, so a
 * reader never sees half a shard or manifest), refusing a path that leaves the folder or a link on the way.
 */
export async function writeInIndex(indexDir: string, rel: string, bytes: Uint8Array | string): Promise<void> {
  await fillInIndex(indexDir, rel, (tmp) => writeFile(tmp, bytes));
}

/**
 * `writeInIndex` for a file written by `fill` (given the temporary path to write): a converted copy is
 * streamed to disk, never held whole. What `fill` returns is returned once the file is in place.
 */
export async function fillInIndex<T>(indexDir: string, rel: string, fill: (tmp: string) => Promise<T>): Promise<T> {
  const rule = rel === 'manifest.json' ? { parquet: false } : isOwnConvertedPath(rel) ? { converted: true } : { parquet: true };
  await mkdir(indexDir, { recursive: true });
  const full = await insideIndex(indexDir, rel, rule);
  await mkdir(dirname(full), { recursive: true });
  // Checked again once the folders exist: a link planted between the check and mkdir.
  await insideIndex(indexDir, rel, rule);
  const tmp = `${full}.tmp-${process.pid}-${Math.random().toString(36).slice(2)}`;
  try {
    const made = await fill(tmp);
    await rename(tmp, full);
    return made;
  } finally {
    await rm(tmp, { force: true });
  }
}
