// `lint --json` in bounded memory (run by `npm run bench`, or alone: `node scripts/bench-lint-json.mjs`).
// Two generated files, each linted with `--json` under a V8 heap cap, its output counted and dropped:
//   bad lines: one valid rollout, then BENCH_LINT_BAD (default 4,000,000) bad lines, half not JSON (E_PARSE),
//              half JSON of the wrong shape (E_SCHEMA);
//   rollouts:  BENCH_LINT_ROLLOUTS (default 500,000) small rollouts, 8 to a group, each with findings, one
//              in 1,000 a duplicate.
// Prints per file the exit code (1 = errors found, the right answer for both; 2 = internal failure, a
// crash is neither), peak RSS (/usr/bin/time -v), output bytes and seconds:
//   bench-lint-json: <case>: exit <code>, peak RSS <MB> MB (heap cap <MB> MB), output <MB> MB, <s> s
// BENCH_LINT_BIN names another checkout's bin/trajscope.mjs, to measure the same files before a change.
import { spawn } from 'node:child_process';
import { createWriteStream, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const BAD = Number(process.env.BENCH_LINT_BAD ?? 4_000_000);
const ROLLOUTS = Number(process.env.BENCH_LINT_ROLLOUTS ?? 500_000);
const HEAP_MB = Number(process.env.BENCH_LINT_HEAP_MB ?? 256);
const BIN = resolve(process.env.BENCH_LINT_BIN ?? 'bin/trajscope.mjs');
const dir = mkdtempSync(join(tmpdir(), 'trajscope-bench-lint-'));

/** A small valid v1 rollout: two generations, one tool call, a reward; enough for a few findings. */
function rollout(i) {
  const ids = (n, k) => Array.from({ length: n }, (_, j) => (i * 7 + j * 13 + k) % 151_000);
  const context = ids(12, 1);
  const gen = ids(6, 2);
  return {
    task_id: `task-${Math.floor(i / 8) % 5000}`,
    // Every 1,000th repeats its neighbour's id: E_DUPLICATE_ROLLOUT, found only once both are read.
    rollout_id: `r-${i % 1000 === 999 ? i - 1 : i}`,
    attempt_id: 'a-1',
    policy_version: 'v-1',
    tokenizer: { name: 'synthetic', version: '1' },
    sampling: { temperature: 1, seed: i },
    segments: [
      { input_ids: context, generated_ids: gen, old_logprobs: gen.map((_, j) => -j / 10), tool_call_id: 'c-1' },
      { input_ids: [...context, ...gen, ...ids(5, 3)], generated_ids: ids(4, 4), old_logprobs: [-0.1, -0.2, -0.3, -0.4] },
    ],
    steps: [{ tool_call_id: 'c-1', tool: 'read_file', args: { path: 'a.py' }, observation: { status: 'ok', text: 'x = 1' } }],
    termination: i % 97 === 0 ? 'infra_failure' : 'finished',
    reward: i % 97 === 0 ? null : (i * 2654435761) % 3 === 0 ? 1 : 0,
  };
}

async function writeLines(file, count, line) {
  const out = createWriteStream(file);
  for (let i = 0; i < count; i++) if (!out.write(line(i))) await new Promise((r) => out.once('drain', r));
  out.end();
  await new Promise((r) => out.on('finish', r));
}

function lintJson(file) {
  const started = Date.now();
  const child = spawn('/usr/bin/time', ['-v', process.execPath, `--max-old-space-size=${HEAP_MB}`, BIN, 'lint', '--json', file], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let bytes = 0;
  child.stdout.on('data', (c) => {
    bytes += c.length;
  });
  let stderr = '';
  child.stderr.on('data', (c) => {
    stderr += c;
  });
  return new Promise((done) =>
    child.on('exit', (code) => {
      const rssKb = Number(/Maximum resident set size \(kbytes\): (\d+)/.exec(stderr)?.[1] ?? Number.NaN);
      const signal = /terminated by signal (\d+)/.exec(stderr)?.[1];
      const exit = /Exit status: (\d+)/.exec(stderr)?.[1] ?? (signal ? `killed by signal ${signal}` : String(code));
      const lintSaid = stderr.split('\n').filter((l) => l.startsWith('trajscope') || l.includes('Error'));
      done({ exit, rssMb: rssKb / 1024, outMb: bytes / 2 ** 20, seconds: (Date.now() - started) / 1000, lintSaid });
    }),
  );
}

function report(name, r) {
  console.log(
    `bench-lint-json: ${name}: exit ${r.exit}, peak RSS ${r.rssMb.toFixed(0)} MB (heap cap ${HEAP_MB} MB), output ${r.outMb.toFixed(0)} MB, ${r.seconds.toFixed(1)} s`,
  );
  for (const l of r.lintSaid.slice(0, 3)) console.log(`  ${l}`);
  if (r.exit !== '1') process.exitCode = 1;
}

try {
  const bad = join(dir, 'bad-lines.jsonl');
  console.log(`bench-lint-json: writing 1 rollout and ${BAD.toLocaleString('en-US')} bad lines…`);
  await writeLines(bad, BAD + 1, (i) =>
    i === 0 ? `${JSON.stringify(rollout(0))}\n` : i % 2 === 0 ? '{"task_id": "t", "rollout_id": \n' : `{"task_id": ${i}}\n`,
  );
  report(`${BAD.toLocaleString('en-US')} bad lines`, await lintJson(bad));
  rmSync(bad);
  const many = join(dir, 'rollouts.jsonl');
  console.log(`bench-lint-json: writing ${ROLLOUTS.toLocaleString('en-US')} rollouts…`);
  await writeLines(many, ROLLOUTS, (i) => `${JSON.stringify(rollout(i))}\n`);
  report(`${ROLLOUTS.toLocaleString('en-US')} rollouts`, await lintJson(many));
} finally {
  rmSync(dir, { recursive: true, force: true });
}
