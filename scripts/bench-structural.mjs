// `npm run bench` (part): the cost of reading by shape (issue 24). A file of agent traces no adapter was
// written for (smolagents ChatMessages under `intermediate_steps`, with a score and a task), read through
// the one parser the CLI and the page share, against the bare split and JSON.parse of the same bytes.
// Prints: bench-structural: <MB> MB, <n> records, read <ms> ms, bare <ms> ms, ratio <r> (target <= 1.5)
// Each side timed three times, alternating, best of three: the ratio is of one run, on one machine state.
import { performance } from 'node:perf_hooks';
import { mulberry32 } from '../src/analysis/random.ts';
import { createLineParser } from '../src/format/adapters/lineParser.ts';

const MB = Number(process.env.BENCH_STRUCTURAL_MB ?? 48);
const TARGET = 1.5;
const ROUNDS = 3;

const WORDS = 'the model reads the file runs the tests edits the function and checks the output again'.split(' ');
const text = (rand, n) => Array.from({ length: n }, () => WORDS[Math.floor(rand() * WORDS.length)]).join(' ');

function record(rand, i) {
  const steps = [
    { role: 'system', content: [{ type: 'text', text: text(rand, 60) }] },
    { role: 'user', content: [{ type: 'text', text: `New task:\n${text(rand, 40)}` }] },
  ];
  const calls = 3 + Math.floor(rand() * 8);
  for (let c = 0; c < calls; c++) {
    const id = `call_${i}_${c}`;
    steps.push({
      role: 'tool-call',
      content: [{ type: 'text', text: `Calling tools:\n${text(rand, 20)}` }],
      tool_calls: [{ id, type: 'function', function: { name: 'python_interpreter', arguments: text(rand, 30) } }],
    });
    steps.push({ role: 'tool-response', content: [{ type: 'text', text: `Call id: ${id}\nObservation:\n${text(rand, 120)}` }] });
  }
  steps.push({ role: 'assistant', content: [{ type: 'text', text: text(rand, 25) }] });
  return JSON.stringify({ task: text(rand, 12), task_id: `task-${i % 500}`, intermediate_steps: steps, score: rand() < 0.5 ? 1 : 0 });
}

const rand = mulberry32(20261203);
const lines = [];
let bytes = 0;
for (let i = 0; bytes < MB * 1024 * 1024; i++) {
  const line = record(rand, i);
  lines.push(line);
  bytes += line.length + 1;
}
const data = new TextEncoder().encode(`${lines.join('\n')}\n`);
lines.length = 0;
const CHUNK = 1 << 20;

function bare() {
  const decoder = new TextDecoder();
  let n = 0;
  let rest = '';
  for (let at = 0; at < data.length; at += CHUNK) {
    const part = rest + decoder.decode(data.subarray(at, at + CHUNK), { stream: true });
    const split = part.split('\n');
    rest = split.pop() ?? '';
    for (const l of split) if (l !== '') n += JSON.parse(l) ? 1 : 0;
  }
  return n;
}

function structural() {
  const parser = createLineParser('agent-traces.jsonl');
  let n = 0;
  const count = (rs) => {
    for (const r of rs) if (r.kind === 'rollout') n++;
  };
  for (let at = 0; at < data.length; at += CHUNK) count(parser.push(data.subarray(at, at + CHUNK)));
  count(parser.end());
  if (parser.format !== 'structural') throw new Error(`read as ${parser.format}, not by shape`);
  return n;
}

const time = (f) => {
  const t0 = performance.now();
  const n = f();
  return { ms: performance.now() - t0, n };
};
const best = { bare: Number.POSITIVE_INFINITY, read: Number.POSITIVE_INFINITY };
let records = 0;
for (let round = 0; round < ROUNDS; round++) {
  const order = round % 2 === 0 ? ['bare', 'read'] : ['read', 'bare'];
  for (const side of order) {
    const { ms, n } = time(side === 'bare' ? bare : structural);
    best[side] = Math.min(best[side], ms);
    if (side === 'read') records = n;
  }
}
const ratio = best.read / best.bare;
console.log(
  `bench-structural: ${(data.length / 1048576).toFixed(0)} MB, ${records} records, read ${best.read.toFixed(0)} ms, bare ${best.bare.toFixed(0)} ms, ratio ${ratio.toFixed(2)} (target <= ${TARGET}) ${ratio <= TARGET ? 'ok' : 'MISSED'}`,
);
process.exitCode = ratio <= TARGET ? 0 : 1;
