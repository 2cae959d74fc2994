// Builds the inspector into dist/ unless dist/ was built from exactly these sources: `npm install` runs it
// (prepare), so `trajscope view` serves at once instead of spending ~20 s in a first build (issue 31), and
// a checkout that moved on since is rebuilt, never served stale. `npm test`'s build stage uses it too.
//   node scripts/build-app.mjs [--quiet] [--force]
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const DIST = join(ROOT, 'dist');
const STAMP = join(DIST, '.trajscope-build.json');
/** What the built app is made of; tests and docs are not. */
const INPUTS = ['index.html', 'vite.config.ts', 'package-lock.json', 'tsconfig.json', 'scripts/qwenTokenTablePlugin.ts', 'src', 'public'];
const SKIP = /\.test\.tsx?$|\.md$/;

function* files(path) {
  const full = join(ROOT, path);
  if (!existsSync(full)) return;
  const entries = readdirSync(full, { withFileTypes: true, recursive: false });
  for (const e of entries.sort((a, b) => (a.name < b.name ? -1 : 1))) {
    const rel = join(path, e.name);
    if (e.isDirectory()) yield* files(rel);
    else if (e.isFile() && !SKIP.test(e.name)) yield rel;
  }
}

/** SHA-256 over every input's path and bytes: the same sources give the same digest on any machine. */
export function inputsDigest() {
  const hash = createHash('sha256');
  for (const input of INPUTS) {
    const full = join(ROOT, input);
    if (!existsSync(full)) continue;
    const list = readdirSafe(full) ? [...files(input)] : [input];
    for (const f of list) {
      hash.update(`${relative(ROOT, join(ROOT, f))}\0`);
      hash.update(readFileSync(join(ROOT, f)));
      hash.update('\0');
    }
  }
  return hash.digest('hex');
}

function readdirSafe(path) {
  try {
    readdirSync(path);
    return true;
  } catch {
    return false;
  }
}

function builtDigest() {
  try {
    return JSON.parse(readFileSync(STAMP, 'utf8')).inputs ?? null;
  } catch {
    return null;
  }
}

const quiet = process.argv.includes('--quiet');
const force = process.argv.includes('--force');
const digest = inputsDigest();
if (!force && existsSync(join(DIST, 'index.html')) && builtDigest() === digest) {
  if (!quiet) console.log('dist/ is up to date with the sources: not rebuilt');
  process.exit(0);
}
if (quiet) process.stderr.write('building the inspector (dist/ is missing or older than the sources)…\n');
const built = spawnSync('npx', ['vite', 'build', ...(quiet ? ['--logLevel', 'error'] : [])], { cwd: ROOT, stdio: 'inherit' });
if (built.status !== 0) process.exit(built.status ?? 1);
writeFileSync(STAMP, `${JSON.stringify({ inputs: digest })}\n`);
