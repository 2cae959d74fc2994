// Writes a large synthetic v1 file for memory and speed checks:
//   node scripts/make-large-jsonl.mjs OUT.jsonl SIZE_MB [SEED]
// Contexts grow by appending, as real agent rollouts do (system prompt and task, then each call and its
// observation); numbers come from a seeded generator so two runs write the same bytes.
import { createWriteStream } from 'node:fs';
import { pathToFileURL } from 'node:url';

function generator(seedArg) {
  let seed = Number(seedArg) >>> 0 || 1;
  // xorshift32: fast, seeded, good enough for synthetic token ids.
  return () => {
    seed ^= seed << 13;
    seed ^= seed >>> 17;
    seed ^= seed << 5;
    return (seed >>> 0) / 2 ** 32;
  };
}

/** What every synthetic rollout was generated with: one tokenizer, template, grader and sampling. */
const SETUP = {
  tokenizer: { name: 'synthetic', version: '1' },
  chat_template: { name: 'synthetic', version: '1' },
  grader: { name: 'synthetic', version: '1' },
  sampling: { temperature: 1, max_new_tokens: 4096 },
};

const randomIds = (rand, n) => Array.from({ length: n }, () => Math.floor(rand() * 151_000));

/** One rollout: `segments` generations over a context that starts at `prompt` tokens and grows. */
export function syntheticRollout(rand, i, { prompt = 1300, segments = 6, observation = [300, 900] } = {}) {
  const ids = (n) => randomIds(rand, n);
  const segs = [];
  const steps = [];
  let context = ids(prompt);
  for (let s = 0; s < segments; s++) {
    const gen = ids(40 + Math.floor(rand() * 80));
    const id = `c-${s + 1}`;
    segs.push({
      input_ids: context,
      generated_ids: gen,
      old_logprobs: gen.map(() => -Math.round(rand() * 3000) / 1000),
      tool_call_id: id,
    });
    steps.push({
      tool_call_id: id,
      tool: s === segments - 1 ? 'finish' : 'read_file',
      args: { path: 'search.py' },
      observation: { status: 'ok', text: 'x'.repeat(200) },
    });
    const obs = observation[0] + Math.floor(rand() * (observation[1] - observation[0]));
    context = [...context, ...gen, ...ids(obs)];
  }
  return {
    task_id: `task-${i % 50}`,
    rollout_id: `r-${i}`,
    attempt_id: 'a-1',
    policy_version: 'v-1',
    environment_version: 'env-1',
    ...SETUP,
    segments: segs,
    steps,
    termination: 'finished',
    reward: rand() < 0.5 ? 1 : 0,
  };
}

/**
 * One long rollout (`rollout_id` r-big): three generations over a context growing to `tokens`, and its
 * training sequence with the generated positions in the loss.
 */
export function longRollout(rand, tokens) {
  const sizes = [30_000, 60_000, tokens - 200];
  const segments = [];
  let context = randomIds(rand, sizes[0]);
  for (const [i, size] of sizes.entries()) {
    if (context.length < size) context = [...context, ...randomIds(rand, size - context.length)];
    const gen = randomIds(rand, 60);
    segments.push({ input_ids: context, generated_ids: gen, old_logprobs: gen.map(() => -rand()), tool_call_id: `c-${i + 1}` });
    context = [...context, ...gen];
  }
  const sequence = context;
  const mask = sequence.map(() => 0);
  for (const s of segments) for (let j = 0; j < s.generated_ids.length; j++) mask[s.input_ids.length + j] = 1;
  return {
    task_id: 'big-task',
    rollout_id: 'r-big',
    attempt_id: 'a-1',
    ...SETUP,
    segments,
    training: { sequence_ids: sequence, loss_mask: mask },
    termination: 'finished',
    reward: 1,
  };
}

/** Writes rollouts until the file reaches `sizeMb`; `last` (optional) is appended as the final line. */
export async function writeLargeJsonl(out, sizeMb, seedArg = 1, { shape, last } = {}) {
  const rand = generator(seedArg);
  const target = Number(sizeMb) * 1024 * 1024;
  const stream = createWriteStream(out);
  let written = 0;
  let i = 0;
  const write = async (line) => {
    written += Buffer.byteLength(line);
    if (!stream.write(line)) await new Promise((r) => stream.once('drain', r));
  };
  while (written < target) await write(`${JSON.stringify(syntheticRollout(rand, i++, shape))}\n`);
  if (last) {
    await write(`${JSON.stringify(last(rand))}\n`);
    i++;
  }
  stream.end();
  await new Promise((r) => stream.on('finish', r));
  return { rollouts: i, bytes: written };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const [out, sizeMb = '64', seed = '1'] = process.argv.slice(2);
  if (!out) {
    console.error('usage: node scripts/make-large-jsonl.mjs OUT.jsonl SIZE_MB [SEED]');
    process.exit(2);
  }
  const { rollouts, bytes } = await writeLargeJsonl(out, sizeMb, seed);
  console.log(`${out}: ${rollouts} rollouts, ${(bytes / 1024 / 1024).toFixed(1)} MB`);
}
