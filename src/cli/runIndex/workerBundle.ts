import { createHash } from 'node:crypto';
import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const BIN = join(ROOT, 'bin/trajscope.mjs');
/** Beside node_modules, so the bundle's packages (left external) resolve as the CLI's do. */
const CACHE = join(ROOT, 'node_modules/.cache/trajscope');
/** One record per checkout (two checkouts may share a node_modules through a link). */
const RECORD = join(CACHE, `index-worker-${createHash('sha256').update(ROOT).digest('hex').slice(0, 12)}.json`);
/** A bundle no record names is deleted once it is this old (a run that read the record just before may still start it). */
const STALE_MS = 10 * 60 * 1000;

interface Record {
  /** The bundle's file name in CACHE (named by its content, so it never changes under a reader). */
  bundle: string;
  /** Every source file esbuild read, with the size and mtime it had: any change builds again. */
  inputs: [path: string, size: number, mtimeMs: number][];
}

async function unchanged(record: Record): Promise<boolean> {
  const now = await Promise.all(record.inputs.map(([path]) => stat(join(ROOT, path)).catch(() => null)));
  return now.every((s, i) => s !== null && s.size === record.inputs[i]?.[1] && s.mtimeMs === record.inputs[i]?.[2]);
}

/**
 * The index worker as one plain JS file, so a child starts by loading one module instead of the second
 * tsx spends compiling the CLI module by module. Built by esbuild (~0.2 s, and CPU the first file's scan
 * would otherwise have) only when one of its sources changed since the last build, so a parallel
 * run usually forks its children at once. Where the cache cannot be written (a read-only install), the
 * children run the CLI itself under tsx.
 */
export async function indexWorkerEntry(): Promise<{ script: string; args: string[] }> {
  try {
    const known = JSON.parse(await readFile(RECORD, 'utf8')) as Record;
    if (await unchanged(known)) return { script: join(CACHE, known.bundle), args: [] };
  } catch {
    // No record yet, or not readable: build one.
  }
  try {
    await mkdir(CACHE, { recursive: true });
    const out = await build({
      stdin: {
        contents: "import { serveScans } from './src/cli/runIndex/worker.ts';\nawait serveScans();\n",
        resolveDir: ROOT,
        loader: 'ts',
      },
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      packages: 'external',
      write: false,
      absWorkingDir: ROOT,
      metafile: true,
      outfile: 'index-worker.mjs',
      logLevel: 'silent',
    });
    const code = out.outputFiles[0]?.contents;
    if (!code) throw new Error('esbuild wrote nothing');
    const bundle = `index-worker-${createHash('sha256').update(code).digest('hex').slice(0, 16)}.mjs`;
    const inputs = await Promise.all(
      Object.keys(out.metafile.inputs)
        .filter((p) => !p.startsWith('<'))
        .map(async (p): Promise<Record['inputs'][number]> => {
          const s = await stat(join(ROOT, p));
          return [p, s.size, s.mtimeMs];
        }),
    );
    const tmp = `.${process.pid}-${Date.now().toString(36)}.tmp`;
    await writeFile(join(CACHE, bundle + tmp), code);
    await rename(join(CACHE, bundle + tmp), join(CACHE, bundle));
    await writeFile(RECORD + tmp, JSON.stringify({ bundle, inputs } satisfies Record));
    await rename(RECORD + tmp, RECORD);
    await removeStale(bundle);
    return { script: join(CACHE, bundle), args: [] };
  } catch {
    return { script: BIN, args: ['index', '--worker'] };
  }
}

/** Deletes old bundles that no checkout's record names. */
async function removeStale(current: string): Promise<void> {
  const names = await readdir(CACHE).catch(() => []);
  const named = new Set([current]);
  for (const name of names.filter((n) => /^index-worker-.*\.json$/.test(n))) {
    const record = await readFile(join(CACHE, name), 'utf8').catch(() => '{}');
    named.add(String((JSON.parse(record) as Partial<Record>).bundle));
  }
  const now = Date.now();
  for (const name of names) {
    if (named.has(name) || !/^index-worker-.*\.mjs$/.test(name)) continue;
    const s = await stat(join(CACHE, name)).catch(() => null);
    if (s && now - s.mtimeMs > STALE_MS) await rm(join(CACHE, name), { force: true });
  }
}
