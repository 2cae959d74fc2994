import { join, relative, resolve, sep } from 'node:path';
import type { RunManifest } from '../../format/runIndex/manifest';
import { readManifest, removeUnnamed } from './build';
import { toPosix } from './inputs';
import { checkIndexFolder, checkManifestPaths, writeInIndex } from './ownFiles';
import { orderByPolicy } from './policyOrder';

/**
 * `trajscope index --merge PART... --out DIR`: one manifest over partial indexes built apart (a job array,
 * one `trajscope index` per slice of the file list, docs/scale.md). Shards stay where their part wrote
 * them, under the merged index (the manifest names them relative to itself); the parts must index the same run directory and no
 * file twice. The run-wide policy order is applied again, since each part knew only its own files.
 */
export async function mergeIndexes(parts: readonly string[], outDir: string): Promise<RunManifest> {
  const out = resolve(outDir);
  let base: string | null = null;
  let options: string | undefined;
  let mapping: RunManifest['mapping'];
  const files: RunManifest['files'] = [];
  const owner = new Map<string, string>();
  for (const part of parts) {
    const dir = resolve(part);
    // An index names only files inside its own folder (ownFiles.ts): the parts sit under it, as
    // scripts/index-parallel.sh puts them (OUT/parts/task-K).
    if (!dir.startsWith(out + sep))
      throw new Error(`${part} is not inside ${outDir}: put the parts under the merged index (${join(outDir, 'parts', 'task-K')})`);
    const manifest = await readManifest(dir);
    if (!manifest) throw new Error(`${part} is not a run index (it has no manifest.json)`);
    const partBase = resolve(dir, manifest.source_base);
    if (base !== null && partBase !== base)
      throw new Error(`${part} indexes files under ${partBase}, the others under ${base}: merge indexes of one run`);
    base = partBase;
    if (options !== undefined && manifest.options !== options)
      throw new Error(`${part} was indexed with other options than the parts before it`);
    options = manifest.options;
    mapping = manifest.mapping;
    for (const f of manifest.files) {
      const other = owner.get(f.file);
      if (other !== undefined) throw new Error(`${f.file} is in both ${other} and ${part}`);
      owner.set(f.file, part);
      files.push({ ...f, shards: f.shards.map((s) => ({ ...s, path: toPosix(relative(out, join(dir, s.path))) })) });
    }
  }
  files.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
  const manifest: RunManifest = {
    version: 1,
    source_base: toPosix(relative(out, base ?? out)),
    ...(options === undefined ? {} : { options }),
    ...(mapping === undefined ? {} : { mapping }),
    files,
  };
  await checkIndexFolder(out);
  // Each part's paths were checked against the part; a part reached through a link is caught here.
  await checkManifestPaths(out, manifest);
  const old = await readManifest(out).catch(() => null);
  if (old) await checkManifestPaths(out, old);
  await orderByPolicy(manifest, out);
  await writeInIndex(out, 'manifest.json', `${JSON.stringify(manifest, null, 1)}\n`);
  await removeUnnamed(out, old, manifest);
  return manifest;
}
