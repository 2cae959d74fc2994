import { compact, intArray, type Json, list, locator, num, numArray, rewardFor } from './read';
import { type Message, normalizeMessage } from './transcript';
import { type Convert, type ConvertContext, ConvertError } from './types';

/*
 * Atropos ScoredDataGroup JSONL (NousResearch/atropos, atroposlib/envs/base.py: `ScoredDataGroup`, and
 * the `process` command's jsonl writer): one line per group, with per-member lists `tokens` (the whole
 * sequence), `masks` (the trainer's labels: -100 where no loss is taken, the token id where it is),
 * `scores`, and optionally `messages`, `advantages`, `ref_logprobs`, `inference_logprobs`, `overrides`,
 * plus `group_overrides` and an environment's own fields (seed, parsed_actions, …).
 */

/** The label Atropos (as Hugging Face) writes where no loss is taken: the prompt, observations, padding. */
const IGNORE = -100;

/** Contiguous runs of trained positions, [start, end) each. */
function trainedRuns(mask: number[]): Array<[number, number]> {
  const runs: Array<[number, number]> = [];
  for (let i = 0; i < mask.length; i++) {
    if (mask[i] === IGNORE) continue;
    const last = runs.at(-1);
    if (last && last[1] === i) last[1] = i + 1;
    else runs.push([i, i + 1]);
  }
  return runs;
}

/** The member's lists element i, when the group field is a per-member list. */
function member(value: Json, key: string, i: number): unknown {
  const l = list(value[key]);
  return l ? l[i] : undefined;
}

function memberRecord(value: Json, i: number, ctx: ConvertContext): Json {
  const where = `tokens[${i}]`;
  const tokens = intArray(member(value, 'tokens', i));
  if (!tokens) throw new ConvertError(`${where}: expected the member's token ids`);
  const mask = intArray(member(value, 'masks', i));
  if (!mask || mask.length !== tokens.length) {
    throw new ConvertError(`masks[${i}]: expected ${tokens.length} labels (one per token, -100 where no loss is taken)`);
  }
  const score = num(member(value, 'scores', i));
  if (score === undefined) throw new ConvertError(`scores[${i}]: expected a number`);
  const inference = numArray(member(value, 'inference_logprobs', i));
  const logprobs = inference && inference.length === tokens.length ? inference : null;
  const runs = trainedRuns(mask);
  // Each trained run is one generation: the sequence before it is what the model saw.
  const segments: Json[] = runs.map(([start, end]) =>
    compact({
      input_ids: tokens.slice(0, start),
      generated_ids: tokens.slice(start, end),
      old_logprobs: logprobs ? logprobs.slice(start, end) : [],
      old_logprobs_recorded: logprobs ? undefined : false,
      tool_call_id: null,
    }),
  );
  const raw = member(value, 'messages', i);
  let transcript: Message[] | undefined;
  const extra: Json = {};
  const group: Json = {};
  if (Array.isArray(raw)) {
    transcript = raw.flatMap((m, k) => {
      const msg = normalizeMessage(m, `messages[${i}][${k}]`);
      return msg ? [msg] : [];
    });
    // Assistant messages and trained runs in the same number and order: each run is that message.
    const assistants = transcript.flatMap((m, k) => (m.role === 'assistant' ? [k] : []));
    if (assistants.length === segments.length) {
      segments.forEach((s, k) => {
        const index = assistants[k] ?? 0;
        s.transcript_index = index;
        const content = transcript?.[index]?.content;
        if (typeof content === 'string') s.text = content;
      });
    }
  } else if (raw !== undefined) {
    // Some environments store each member's rendered text instead of messages.
    extra.messages = raw;
  }
  for (const key of ['overrides', 'advantages', 'ref_logprobs', 'inference_logprobs'] as const) {
    const v = member(value, key, i);
    if (v !== undefined && v !== null && !(key === 'inference_logprobs' && logprobs)) extra[key] = v;
  }
  for (const [key, v] of Object.entries(value)) {
    if (['tokens', 'masks', 'scores', 'messages', 'overrides', 'advantages', 'ref_logprobs', 'inference_logprobs'].includes(key)) continue;
    if (key === '__proto__' || v === null) continue;
    // A list as long as the group is per member (e.g. parsed_actions); anything else belongs to the group.
    const l = list(v);
    const n = list(value.tokens)?.length ?? 0;
    if (l && l.length === n && key !== 'group_overrides') extra[key] = l[i];
    else group[key] = v;
  }
  if (Object.keys(group).length > 0) extra.group = group;
  const termination = 'unknown';
  return compact({
    source_format: 'atropos-groups',
    // One line is one group of one prompt; its members have no ids of their own.
    task_id: locator(ctx),
    group_id: locator(ctx),
    rollout_id: `${locator(ctx)}/${where}`,
    transcript,
    segments,
    training: { sequence_ids: tokens, loss_mask: mask.map((m) => (m === IGNORE ? 0 : 1)) },
    // Atropos keeps no stop reason; every member of a written group was scored and sent to the trainer.
    termination,
    reward: rewardFor(termination, score, extra),
    extra: Object.keys(extra).length > 0 ? extra : undefined,
  });
}

export const convertAtroposGroups: Convert = (value, ctx) => {
  const tokens = list(value.tokens);
  if (!tokens) throw new ConvertError('tokens: expected a list of token id lists, one per group member');
  const scores = list(value.scores);
  if (!scores || scores.length !== tokens.length) throw new ConvertError(`scores: expected ${tokens.length} scores, one per member`);
  return tokens.map((_, i) => memberRecord(value, i, ctx));
};
