// Bounded memory on a large Inspect `.eval` (run by `npm run bench`, or alone: `node scripts/bench-eval.mjs`).
// Writes a synthetic .eval zip of BENCH_EVAL_MB (default 1024) by repeating the real samples of
// ../shared/real-data/inspect-ai-json (new ids; the first ten deflated, the rest stored), then runs
// `trajscope lint` on it under a V8 heap cap and reports its peak RSS (/usr/bin/time -v). Target: the
// peak stays far below the file's size (it is bounded by the largest sample, not the file).
//   bench-eval: <MB> MB .eval, <n> samples, lint exit <code>, peak RSS <MB> MB (heap cap <MB> MB), <s> s
import { spawn } from 'node:child_process';
import { closeSync, existsSync, mkdtempSync, openSync, readFileSync, rmSync, statSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Zip, ZipDeflate, ZipPassThrough } from 'fflate';

const SIZE_MB = Number(process.env.BENCH_EVAL_MB ?? 1024);
const HEAP_MB = Number(process.env.BENCH_EVAL_HEAP_MB ?? 512);
const REAL = new URL('../../shared/real-data/inspect-ai-json/', import.meta.url);
const SOURCE = new URL('2025-05-12T20-27-36-04-00_browser.json', REAL);
if (!existsSync(SOURCE)) {
  console.log('bench-eval: ../shared/real-data is absent: skipped');
  process.exit(0);
}
const log = JSON.parse(readFileSync(SOURCE, 'utf8'));
const { samples, ...spec } = log;
const enc = new TextEncoder();
const dir = mkdtempSync(join(tmpdir(), 'trajscope-bench-eval-'));
const file = join(dir, 'big.eval');
const fd = openSync(file, 'w');
let written = 0;
const zip = new Zip((err, chunk) => {
  if (err) throw err;
  writeSync(fd, chunk);
  written += chunk.length;
});
function add(name, value, level = 6) {
  const entry = level === 0 ? new ZipPassThrough(name) : new ZipDeflate(name, { level });
  zip.add(entry);
  entry.push(enc.encode(JSON.stringify(value)), true);
}
add('_journal/start.json', { version: spec.version, eval: spec.eval, plan: spec.plan });
let n = 0;
console.log(`bench-eval: writing a ${SIZE_MB} MB .eval…`);
while (written < SIZE_MB * 2 ** 20) {
  const sample = samples[n % samples.length];
  n++;
  // Each sample a new id, one epoch each. The first ten are deflated as Inspect writes them; the rest are
  // stored, so writing a 1 GB archive takes seconds, not minutes (and the file's size is all JSON to read).
  add(`samples/${n}_epoch_1.json`, { ...sample, id: n, uuid: `bench-${n}` }, n <= 10 ? 6 : 0);
}
add('header.json', { ...spec, samples: undefined });
zip.end();
closeSync(fd);
const size = statSync(file).size;

const started = Date.now();
const child = spawn(
  '/usr/bin/time',
  ['-v', process.execPath, `--max-old-space-size=${HEAP_MB}`, 'bin/trajscope.mjs', 'lint', file, '--json'],
  {
    stdio: ['ignore', 'ignore', 'pipe'],
  },
);
let stderr = '';
child.stderr.on('data', (c) => {
  stderr += c;
});
const code = await new Promise((r) => child.on('exit', r));
const seconds = (Date.now() - started) / 1000;
const rssKb = Number(/Maximum resident set size \(kbytes\): (\d+)/.exec(stderr)?.[1] ?? Number.NaN);
rmSync(dir, { recursive: true, force: true });
const exit = /Exit status: (\d+)/.exec(stderr)?.[1] ?? String(code);
console.log(
  `bench-eval: ${(size / 2 ** 20).toFixed(0)} MB .eval, ${n} samples, lint exit ${exit}, peak RSS ${(rssKb / 1024).toFixed(0)} MB (heap cap ${HEAP_MB} MB), ${seconds.toFixed(1)} s`,
);
if (!Number.isFinite(rssKb)) console.error(stderr.slice(-2000));
