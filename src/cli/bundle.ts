import { spawnSync } from 'node:child_process';
import { constants, existsSync } from 'node:fs';
import { copyFile, cp, mkdir, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { plural } from '../analysis';
import type { ReadOptions } from '../format';
import { READ_FLAGS, readOptionsOf, wholeFlag } from './readOptions';
import { buildIndex } from './runIndex/build';
import { Catalog } from './server/catalog';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const DIST = process.env.TRAJSCOPE_DIST ?? join(ROOT, 'dist');
/** Written into the site's index.html: the page opens this run (relative to itself) when its URL names nothing. */
const RUN_META = '<meta name="trajscope-run" content="index/" />';
const SITE_MARK = '.trajscope-bundle';

/**
 * `trajscope bundle RUN --out SITE [--jobs N]`: a static site a reviewer opens from any host that answers
 * range requests (a bucket, GitHub Pages, nginx): the built app, the run's files under run/, and their
 * index under index/ (its `source_base` is `../run`). Nothing of ours runs on the host (docs/adr/0015).
 */
export async function runBundle(argv: string[]): Promise<number> {
  let out: string | undefined;
  let jobs: number;
  let runDir: string | undefined;
  let read: ReadOptions;
  try {
    const { values, positionals } = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        out: { type: 'string', short: 'o' },
        jobs: { type: 'string', short: 'j' },
        ...READ_FLAGS,
      },
    });
    out = values.out;
    if (positionals.length !== 1) throw new Error('name one run directory: trajscope bundle RUN --out SITE');
    if (!out) throw new Error('--out SITE is required');
    jobs = wholeFlag('jobs', values.jobs, Math.min(4, availableParallelism()));
    runDir = positionals[0];
    read = await readOptionsOf(values);
  } catch (e) {
    process.stderr.write(`trajscope bundle: ${e instanceof Error ? e.message : String(e)}\n`);
    return 2;
  }
  try {
    return await bundle(resolve(runDir ?? ''), resolve(out), jobs, read);
  } catch (e) {
    process.stderr.write(`trajscope bundle: ${e instanceof Error ? e.message : String(e)}\n`);
    return 2;
  }
}

async function bundle(runDir: string, site: string, jobs: number, read: ReadOptions): Promise<number> {
  if (!(await stat(runDir).catch(() => null))?.isDirectory()) throw new Error(`${runDir} is not a directory`);
  if (site === runDir || site.startsWith(runDir + sep) || runDir.startsWith(site + sep)) {
    throw new Error('--out must be outside the run directory (and not contain it)');
  }
  const existing = await readdir(site).catch(() => null);
  if (existing && existing.length > 0 && !existing.includes(SITE_MARK)) {
    throw new Error(`${site} exists and is not a site trajscope bundle wrote; name an empty or new folder`);
  }
  if (!existsSync(join(DIST, 'index.html'))) {
    process.stderr.write('trajscope bundle: building the inspector once (vite build)…\n');
    const built = spawnSync('npx', ['vite', 'build', '--logLevel', 'warn'], { cwd: ROOT, stdio: 'inherit' });
    if (built.status !== 0) throw new Error('the build failed; run `npm run build` to see why');
  }
  const started = Date.now();
  // A bundle written again replaces the old one whole: no file of an older run stays behind.
  await rm(site, { recursive: true, force: true });
  await mkdir(site, { recursive: true });
  await writeFile(join(site, SITE_MARK), 'written by trajscope bundle\n');
  // The app without its source maps (half its size, and no use to a reviewer).
  await cp(DIST, site, { recursive: true, filter: (src) => !src.endsWith('.map') });
  const html = await readFile(join(site, 'index.html'), 'utf8');
  await writeFile(join(site, 'index.html'), html.replace('<head>', `<head>\n    ${RUN_META}`));
  // The run's files as `view` would serve them (trajectory files, no dot-names, real folders only).
  const catalog = await Catalog.open([runDir]);
  const files = await catalog.list();
  const runOut = join(site, 'run');
  let bytes = 0;
  for (const f of files) {
    const rel = f.id.slice('d0/'.length).split('/').map(decodeURIComponent);
    const to = join(runOut, ...rel);
    await mkdir(dirname(to), { recursive: true });
    // A copy-on-write clone where the file system has them, a copy otherwise.
    await copyFile(join(runDir, ...rel), to, constants.COPYFILE_FICLONE);
    bytes += f.size;
  }
  const outcome = await buildIndex({ inputs: [runOut], outDir: join(site, 'index'), jobs, read });
  process.stdout.write(
    `trajscope bundle: ${plural(outcome.rows, 'rollout')} from ${plural(files.length, 'file')} (${(bytes / 1e6).toFixed(1)} MB) ` +
      `in ${((Date.now() - started) / 1000).toFixed(1)} s -> ${relative(process.cwd(), site) || '.'}/\n` +
      '  open index.html from any static host that answers HTTP range requests (a bucket, GitHub Pages, nginx,\n' +
      "  `npx sirv-cli SITE`); Python's http.server ignores ranges: the page then reads whole files and says so.\n",
  );
  for (const u of outcome.unsupported) process.stderr.write(`trajscope bundle: ${u.file}: ${u.why}\n`);
  return 0;
}
