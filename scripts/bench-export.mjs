// `trajscope export` against `trajscope convert` on the same 100,000 rollouts (issue 26: "export of
// 100,000 rollouts at the rate of convert"). Run by `npm run bench`, or alone: `node scripts/bench-export.mjs`.
// One generated v1 file (scripts/make-large-jsonl.mjs's rollouts, small shape, fixed seed). Each command
// runs in its own process, rounds alternating the order; each figure is the best of the rounds:
//   convert IN --out OUT.jsonl                 what "the rate of convert" is: read, check, write v1
//   export IN --as v1|sft|dpo --out OUT        the whole file, every sink
//   export IN --where 'reward>0.5' --as v1     a selection
// and prints each one's rollouts/s and its time over convert's (target <= TARGET).
//   bench-export: 100,000 rollouts, 171 MB: convert 3.1 s; export v1 1.05 x, sft ..., dpo ..., where ...
// BENCH_EXPORT_ROLLOUTS sets the count, BENCH_EXPORT_ROUNDS the rounds (default 3).
import { spawnSync } from 'node:child_process';
import { createWriteStream, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { syntheticRollout } from './make-large-jsonl.mjs';

const ROLLOUTS = Number(process.env.BENCH_EXPORT_ROLLOUTS ?? 100_000);
const ROUNDS = Number(process.env.BENCH_EXPORT_ROUNDS ?? 3);
const TARGET = 1.25;
const BIN = resolve('bin/trajscope.mjs');
const dir = mkdtempSync(join(tmpdir(), 'trajscope-bench-export-'));
const input = join(dir, 'rollouts.jsonl');

let seed = 20261203;
const rand = () => {
  seed ^= seed << 13;
  seed ^= seed >>> 17;
  seed ^= seed << 5;
  return (seed >>> 0) / 2 ** 32;
};
const out = createWriteStream(input);
for (let i = 0; i < ROLLOUTS; i++) {
  const line = `${JSON.stringify(syntheticRollout(rand, i, { prompt: 24, segments: 1, observation: [4, 16] }))}\n`;
  if (!out.write(line)) await new Promise((r) => out.once('drain', r));
}
out.end();
await new Promise((r) => out.on('finish', r));
const mb = statSync(input).size / 1024 / 1024;

const CASES = [
  ['convert', ['convert', input, '--out', join(dir, 'convert.jsonl')]],
  ['export v1', ['export', input, '--as', 'v1', '--out', join(dir, 'v1.jsonl')]],
  ['export sft', ['export', input, '--as', 'sft', '--out', join(dir, 'sft.jsonl')]],
  ['export dpo', ['export', input, '--as', 'dpo', '--out', join(dir, 'dpo.jsonl')]],
  ["export --where 'reward>0.5' v1", ['export', input, '--where', 'reward>0.5', '--as', 'v1', '--out', join(dir, 'where.jsonl')]],
];
const best = new Map();
try {
  for (let round = 0; round < ROUNDS; round++) {
    const order = round % 2 === 0 ? CASES : [...CASES].reverse();
    for (const [name, args] of order) {
      const t = performance.now();
      const r = spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8' });
      const ms = performance.now() - t;
      if (r.status !== 0) throw new Error(`${name} exited ${r.status}: ${r.stderr.slice(-500)}`);
      best.set(name, Math.min(best.get(name) ?? Number.POSITIVE_INFINITY, ms));
    }
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}

const convert = best.get('convert');
const row = (k, v, t = '') => console.log(`${k.padEnd(38)} ${String(v).padStart(14)}  ${t}`);
console.log('');
row('export bench file', `${(mb).toFixed(0)} MB`, `${ROLLOUTS.toLocaleString('en-US')} rollouts, best of ${ROUNDS} rounds`);
const rate = (ms) => `${Math.round(ROLLOUTS / (ms / 1000)).toLocaleString('en-US')} rollouts/s`;
row('convert, s', (convert / 1000).toFixed(2), rate(convert));
let missed = false;
const parts = [];
for (const [name] of CASES.slice(1)) {
  const ms = best.get(name);
  const ratio = ms / convert;
  missed ||= ratio > TARGET;
  parts.push(`${name.replace('export ', '')} ${ratio.toFixed(2)} x`);
  row(`${name}, s`, (ms / 1000).toFixed(2), `${ratio.toFixed(2)} x convert, ${rate(ms)}, target <= ${TARGET} x`);
}
console.log(
  `\nbench-export: ${ROLLOUTS.toLocaleString('en-US')} rollouts, ${mb.toFixed(0)} MB: convert ${(convert / 1000).toFixed(2)} s; export ${parts.join(', ')}${missed ? ' (a target missed)' : ''}`,
);
