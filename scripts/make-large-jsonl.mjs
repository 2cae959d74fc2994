// Writes a large synthetic v1 file for memory and speed checks:
//   node scripts/make-large-jsonl.mjs OUT.jsonl SIZE_MB [SEED]
// Contexts grow by appending, as real agent rollouts do; numbers come from a seeded generator so two runs
// write the same bytes.
import { createWriteStream } from 'node:fs';

const [out, sizeMb = '64', seedArg = '1'] = process.argv.slice(2);
if (!out) {
  console.error('usage: node scripts/make-large-jsonl.mjs OUT.jsonl SIZE_MB [SEED]');
  process.exit(2);
}
let seed = Number(seedArg) >>> 0 || 1;
const rand = () => {
  // xorshift32: fast, seeded, good enough for synthetic token ids.
  seed ^= seed << 13;
  seed ^= seed >>> 17;
  seed ^= seed << 5;
  return (seed >>> 0) / 2 ** 32;
};
const ids = (n) => Array.from({ length: n }, () => Math.floor(rand() * 151_000));

function rollout(i) {
  const segments = [];
  const steps = [];
  let context = ids(400);
  for (let s = 0; s < 6; s++) {
    const gen = ids(40 + Math.floor(rand() * 80));
    const id = `c-${s + 1}`;
    segments.push({
      input_ids: context,
      generated_ids: gen,
      old_logprobs: gen.map(() => -Math.round(rand() * 3000) / 1000),
      tool_call_id: id,
    });
    steps.push({
      tool_call_id: id,
      tool: s === 5 ? 'finish' : 'read_file',
      args: { path: 'search.py' },
      observation: { status: 'ok', text: 'x'.repeat(200) },
    });
    context = [...context, ...gen, ...ids(300 + Math.floor(rand() * 400))];
  }
  return {
    task_id: `task-${i % 50}`,
    rollout_id: `r-${i}`,
    attempt_id: 'a-1',
    policy_version: 'v-1',
    environment_version: 'env-1',
    tokenizer: { name: 'synthetic', version: '1' },
    chat_template: { name: 'synthetic', version: '1' },
    grader: { name: 'synthetic', version: '1' },
    sampling: { temperature: 1, max_new_tokens: 4096 },
    segments,
    steps,
    termination: 'finished',
    reward: rand() < 0.5 ? 1 : 0,
  };
}

const target = Number(sizeMb) * 1024 * 1024;
const stream = createWriteStream(out);
let written = 0;
let i = 0;
while (written < target) {
  const line = `${JSON.stringify(rollout(i++))}\n`;
  written += Buffer.byteLength(line);
  if (!stream.write(line)) await new Promise((r) => stream.once('drain', r));
}
stream.end();
await new Promise((r) => stream.on('finish', r));
console.log(`${out}: ${i} rollouts, ${(written / 1024 / 1024).toFixed(1)} MB`);
