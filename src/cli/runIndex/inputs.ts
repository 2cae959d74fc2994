import { readdir, stat } from 'node:fs/promises';
import { basename, join, relative, resolve, sep } from 'node:path';
import { isTrajectoryFile, TRAJECTORY_ENDINGS } from '../trajectoryFiles';

/** Beside verifiers' results.jsonl: read by its adapter, not a trajectory file. */
const SIBLING_FILES = new Set(['metadata.json']);
export interface Input {
  /** Where to read it (absolute). */
  path: string;
  /** Its name in the index. */
  file: string;
}

/**
 * The inputs as files with their index names: relative to `--base` when given; else, with one directory
 * named, relative to it (the run directory); otherwise as given (relative to the working directory). The index directory itself
 * (if inside the run) is never read.
 */
export async function listInputs(paths: readonly string[], outDir: string, named?: string): Promise<{ base: string; inputs: Input[] }> {
  const kinds = await Promise.all(
    paths.map(async (p) => {
      const s = await stat(p).catch((e: NodeJS.ErrnoException) => {
        throw new Error(`cannot read ${p}: ${e.code === 'ENOENT' ? 'no such file or directory' : e.message}`);
      });
      return { p, dir: s.isDirectory() };
    }),
  );
  const only = kinds.length === 1 && kinds[0]?.dir ? resolve(kinds[0].p) : null;
  const base = named !== undefined ? resolve(named) : (only ?? process.cwd());
  const inputs: Input[] = [];
  const seen = new Set<string>();
  const add = (path: string, file: string) => {
    const abs = resolve(path);
    if (seen.has(abs) || abs.startsWith(outDir + sep)) return;
    seen.add(abs);
    inputs.push({ path: abs, file });
  };
  for (const { p, dir } of kinds) {
    if (!dir) add(p, named !== undefined ? toPosix(relative(base, resolve(p))) : toPosix(p));
    else for (const f of await walk(resolve(p))) add(f, toPosix(relative(base, f)));
  }
  if (inputs.length === 0) throw new Error(`no trajectory files ${TRAJECTORY_ENDINGS} in ${paths.join(', ')}`);
  return { base, inputs };
}

/** A directory's trajectory files in name order, recursively; another run index inside it is skipped. */
export async function walk(dir: string): Promise<string[]> {
  const out: string[] = [];
  const entries = (await readdir(dir, { withFileTypes: true })).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  if (entries.some((e) => e.name === 'manifest.json') && entries.some((e) => e.name === 'shards' && e.isDirectory())) return [];
  for (const e of entries) {
    if (e.name.startsWith('.')) continue;
    const path = join(dir, e.name);
    if (e.isDirectory()) out.push(...(await walk(path)));
    else if (e.isFile() && isTrajectoryFile(e.name) && !SIBLING_FILES.has(basename(e.name))) out.push(path);
  }
  return out;
}

export function toPosix(p: string): string {
  return p.split(sep).join('/');
}
