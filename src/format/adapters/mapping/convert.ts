import { compact, idOf, int, intArray, type Json, list, locator, num, numArray, rewardFor, unmapped } from '../read';
import { chatTurns, contentText, type Message, parsedArguments } from '../transcript';
import { type Convert, type ConvertContext, ConvertError } from '../types';
import { mappedCalls, renamedMessages } from './messages';
import { at } from './path';
import type { FieldMapping } from './schema';
import type { Out } from './shapes';

/*
 * Reads one record of a home-grown dump through a field mapping (schema.ts). The same rules as every
 * adapter: ids and tokens only where the mapping points at them; a missing id is the record's locator;
 * the status goes through the mapping's table with the raw value kept; fields the mapping does not name
 * stay under `extra`.
 */

/** A field read whole leaves `extra`; an object read only in part stays there whole, so nothing is lost. */
function topKey(path: string | undefined): string[] {
  return path === undefined || path.includes('.') ? [] : [path];
}

/** Token arrays where the mapping points: a real segment only when the generated ids are there. */
function tokenSegment(source: unknown, tokens: FieldMapping['tokens'], where: string): Json | null {
  if (!tokens?.generated_ids) return null;
  const generated = at(source, tokens.generated_ids);
  if (generated === undefined) return null;
  const ids = intArray(generated);
  if (!ids) throw new ConvertError(`${where}${tokens.generated_ids}: expected an array of token ids (the mapping's tokens.generated_ids)`);
  const input = tokens.input_ids ? at(source, tokens.input_ids) : undefined;
  const inputIds = input === undefined ? [] : intArray(input);
  if (!inputIds) throw new ConvertError(`${where}${tokens.input_ids}: expected an array of token ids (the mapping's tokens.input_ids)`);
  const lps = tokens.logprobs ? at(source, tokens.logprobs) : undefined;
  const logprobs = lps === undefined ? [] : numArray(lps);
  if (!logprobs) throw new ConvertError(`${where}${tokens.logprobs}: expected an array of numbers (the mapping's tokens.logprobs)`);
  return { input_ids: inputIds, generated_ids: ids, old_logprobs: logprobs };
}

/** Turns: each is one generation (a segment); each executed call with its observation is a step. */
function turnsOf(value: Json, mapping: NonNullable<FieldMapping['turns']>, full: FieldMapping, ctx: ConvertContext) {
  const items = list(at(value, mapping.path));
  if (!items) throw new ConvertError(`${mapping.path}: expected an array of turns (the mapping's turns.path)`);
  const segments: Json[] = [];
  const steps: Json[] = [];
  items.forEach((turn, i) => {
    const where = `${mapping.path}[${i}]`;
    const output = at(turn, mapping.output);
    const calls = mappedCalls(at(turn, mapping.tool_calls), full, `${where}.${mapping.tool_calls}`);
    const observation = at(turn, mapping.observation);
    const observations = Array.isArray(observation) ? observation : observation === undefined ? [] : [observation];
    const tokens = tokenSegment(turn, mapping.tokens, `${where}.`);
    const ids = calls.map(
      (c, k) =>
        // An executed call the dump gave no id: its location stands in, marked as a locator (docs/formats.md).
        c.id ?? (observations[k] !== undefined ? `${locator(ctx)}/${where}${calls.length > 1 ? `/${k}` : ''}` : undefined),
    );
    const known = ids.filter((id): id is string => id !== undefined);
    const segment: Json = tokens ?? { input_ids: [], generated_ids: [], old_logprobs: [] };
    segment.tool_call_id = known[0] ?? null;
    if (known.length > 1) segment.tool_call_ids = known;
    const text = contentText(output).text;
    if (text !== null) segment.text = text;
    if (known.length > 0 && calls.some((c) => c.id === undefined)) segment.tool_call_id_is_locator = true;
    segments.push(segment);
    calls.forEach((call, k) => {
      const id = ids[k];
      const obs = observations[k];
      if (id === undefined || obs === undefined) return;
      const args = parsedArguments(call);
      steps.push(
        compact({
          tool_call_id: id,
          tool: call.name ?? '',
          args,
          observation: { text: typeof obs === 'string' ? obs : JSON.stringify(obs) },
          tool_call_id_is_locator: call.id === undefined ? true : undefined,
        }),
      );
    });
  });
  return { segments, steps };
}

/** The `mapped` format: one source record → one v1 record, as the mapping in `ctx.mapping` says. */
export const convertMapped: Convert = (value, ctx) => convertMappedWith(value, ctx, undefined);

/**
 * `convertMapped`, given the shaped messages already read (`readShape`) but not yet paired, as the
 * structural reader has them from detection; they are paired here, and read from the record otherwise.
 */
export function convertMappedWith(value: Json, ctx: ConvertContext, unpaired: Out[] | undefined): Json[] {
  const mapping = ctx.mapping;
  if (!mapping) throw new ConvertError('no field mapping was given (--map)');
  const rawReward = at(value, mapping.reward);
  const reward = rawReward === undefined || rawReward === null ? null : (num(rawReward) ?? numFromText(rawReward));
  if (reward === undefined) throw new ConvertError(`${mapping.reward}: expected a number or null (the mapping's reward)`);
  const rawStatus = at(value, mapping.status);
  const status = rawStatus === undefined || rawStatus === null ? undefined : String(rawStatus);
  // No status, or none mapped: `unknown`, never a guess; a status the table does not list stays as written.
  const termination = status === undefined ? 'unknown' : (mapping.status_map?.[status] ?? status);

  let transcript: Message[] | undefined;
  let segments: Json[] = [];
  let steps: Json[] = [];
  if (mapping.messages) {
    transcript = renamedMessages(at(value, mapping.messages.path), mapping.messages, mapping, ctx, unpaired);
    ({ segments, steps } = chatTurns(transcript, 0));
    markPositionJoins(transcript, segments, steps);
  } else if (mapping.turns) {
    ({ segments, steps } = turnsOf(value, mapping.turns, mapping, ctx));
  }
  const single = tokenSegment(value, mapping.tokens, '');
  if (single) {
    const last = segments.at(-1);
    if (last && (last.generated_ids as unknown[]).length === 0) Object.assign(last, single);
    else segments.push({ ...single, tool_call_id: null });
  }
  const mappedKeys = [
    ...topKey(mapping.rollout_id),
    ...topKey(mapping.task_id),
    ...topKey(mapping.group_id),
    ...topKey(mapping.policy_version),
    ...topKey(mapping.training_step),
    ...topKey(mapping.reward),
    ...topKey(mapping.messages?.path),
    ...topKey(mapping.turns?.path),
  ];
  const extra = unmapped(value, mappedKeys) ?? {};
  const prompt = at(value, mapping.prompt);
  const step = int(at(value, mapping.training_step));
  // Built key by key, in v1's order, rather than compacted: deleting keys leaves an object slow to read,
  // and every later reader (the schema check, the depth bound, the views) reads this one.
  const record: Json = {
    source_format: 'mapped',
    task_id: idOf(at(value, mapping.task_id)) ?? locator(ctx),
    rollout_id: idOf(at(value, mapping.rollout_id)) ?? locator(ctx),
  };
  const group = idOf(at(value, mapping.group_id));
  if (group !== undefined) record.group_id = group;
  const policy = idOf(at(value, mapping.policy_version));
  if (policy !== undefined) record.policy_version = policy;
  if (step !== undefined && step >= 0) record.training_step = step;
  if (typeof prompt === 'string') record.task = { prompt };
  if (transcript !== undefined) record.transcript = transcript;
  record.segments = segments;
  if (steps.length > 0) record.steps = steps;
  record.termination = termination;
  record.reward = rewardFor(termination, reward, extra);
  if (Object.keys(extra).length > 0) record.extra = extra;
  return [record];
}

/**
 * Calls and results a shape paired by order (shapes.ts): the step says `joined_by: "position"`, and the
 * call id, made from the location, is marked as one (docs/formats.md), on the step and its generation.
 */
function markPositionJoins(transcript: readonly Message[], segments: Json[], steps: Json[]): void {
  const positional = new Set<string>();
  for (const m of transcript) for (const c of m.tool_calls ?? []) if (c.id_is_position === true && c.id !== undefined) positional.add(c.id);
  if (positional.size === 0) return;
  const joined = new Set(transcript.filter((m) => m.joined_by === 'position').map((m) => m.tool_call_id));
  for (const step of steps) {
    const id = String(step.tool_call_id);
    if (!positional.has(id)) continue;
    step.tool_call_id_is_locator = true;
    if (joined.has(id)) step.joined_by = 'position';
  }
  for (const seg of segments) if (positional.has(String(seg.tool_call_id))) seg.tool_call_id_is_locator = true;
}

/** Dumps often write numbers as text ("0.5"): read those, nothing looser. */
function numFromText(v: unknown): number | undefined {
  // A pass/fail verdict (`success: true`) is a reward of 1 or 0.
  if (typeof v === 'boolean') return v ? 1 : 0;
  if (typeof v !== 'string' || !/^-?\d+(\.\d+)?([eE][-+]?\d+)?$/.test(v.trim())) return undefined;
  return Number(v);
}
