import { nestsDeeperThan } from './json';
import { prefixLength, rememberPrefixes } from './prefixes';
import type { Rollout } from './schema';

/*
 * A fast path in front of the zod schema. Validating a rollout with zod costs about a fifth of the
 * JSON.parse that produced it (measured in the parse worker: 53 ms of zod per 271 ms of JSON.parse on a
 * 128 MB file), mostly per-object overhead. `isPlainValid` answers only "certainly valid": when it says
 * yes, the parsed value is exactly what `v1Schema().rollout` would return (its objects are loose and its
 * array checks return the same arrays); when it says no, the line goes through zod, which finds and names
 * the problem. So it may be stricter than the schema but never looser — a property test holds it to that.
 */

type Obj = Record<string, unknown>;

function isObj(v: unknown): v is Obj {
  // An own "__proto__" key (legal in JSON) is left to zod, which drops it rather than keep a prototype name.
  return typeof v === 'object' && v !== null && !Array.isArray(v) && !Object.hasOwn(v, '__proto__');
}
const str = (v: unknown) => typeof v === 'string';
const optStr = (v: unknown) => v === undefined || typeof v === 'string';
const num = (v: unknown) => typeof v === 'number' && v - v === 0;
const optNum = (v: unknown) => v === undefined || num(v);
// zod's z.int() takes safe integers only.
const int = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v);
const optInt = (v: unknown) => v === undefined || int(v);
const optBool = (v: unknown) => v === undefined || typeof v === 'boolean';

/** Every entry from `from` on is an integer (the ones before were checked otherwise). */
function ints(v: unknown, from = 0): boolean {
  if (!Array.isArray(v)) return false;
  for (let i = from; i < v.length; i++) {
    const x = v[i];
    if (typeof x !== 'number' || ((x | 0) !== x && !Number.isInteger(x))) return false;
  }
  return true;
}
function nums(v: unknown, nullable = false): boolean {
  if (!Array.isArray(v)) return false;
  for (let i = 0; i < v.length; i++) {
    const x = v[i];
    if (x === null && nullable) continue;
    if (typeof x !== 'number' || x - x !== 0) return false;
  }
  return true;
}
function bits(v: unknown): boolean {
  if (!Array.isArray(v)) return false;
  for (let i = 0; i < v.length; i++) if (v[i] !== 0 && v[i] !== 1) return false;
  return true;
}
function strs(v: unknown): boolean {
  return Array.isArray(v) && v.every((x) => typeof x === 'string');
}
const opt = (v: unknown, check: (v: unknown) => boolean) => v === undefined || check(v);
const arrayOf = (v: unknown, check: (v: unknown) => boolean) => Array.isArray(v) && v.every(check);

const versioned = (v: unknown) => isObj(v) && optStr(v.name) && optStr(v.version);

/**
 * `ints(v)`, where the first ids equal to `head` + `tail` (the previous segment's, already checked) need
 * no check of their own: one pass both checks the context and finds how much of it the previous segment
 * held (prefixes.ts). The prefix length, or -1 when an id is not an integer.
 */
function contextIds(v: unknown, prev: Obj | null): number {
  if (!Array.isArray(v)) return -1;
  const k = prev ? prefixLength(v, prev.input_ids as unknown[], prev.generated_ids as unknown[]) : 0;
  return ints(v, k) ? k : -1;
}

/** Every segment valid, in order; their context prefixes are remembered for the checks that follow. */
function segments(v: unknown): boolean {
  if (!Array.isArray(v)) return false;
  const prefixes: number[] = new Array(v.length);
  let prev: Obj | null = null;
  for (let i = 0; i < v.length; i++) {
    const seg: unknown = v[i];
    if (!isObj(seg)) return false;
    const k = contextIds(seg.input_ids, prev);
    if (k < 0 || !segment(seg)) return false;
    prefixes[i] = k;
    prev = seg;
  }
  rememberPrefixes(v, prefixes);
  return true;
}

/** A segment's fields but its input_ids (checked by `segments`, with the prefix). */
function segment(v: Obj): boolean {
  return (
    ints(v.generated_ids) &&
    nums(v.old_logprobs) &&
    (v.tool_call_id === undefined || v.tool_call_id === null || str(v.tool_call_id)) &&
    opt(v.loss_mask, bits) &&
    opt(v.input_tokens, strs) &&
    opt(v.generated_tokens, strs)
  );
}

function step(v: unknown): boolean {
  if (!isObj(v)) return false;
  const o = v.observation;
  const t = v.tests;
  return (
    str(v.tool_call_id) &&
    str(v.tool) &&
    opt(v.args, isObj) &&
    opt(
      o,
      (x) =>
        isObj(x) &&
        optStr(x.text) &&
        optStr(x.status) &&
        (x.exit_code === undefined || x.exit_code === null || int(x.exit_code)) &&
        optBool(x.truncated),
    ) &&
    opt(t, (x) => isObj(x) && opt(x.passed, strs) && opt(x.failed, strs) && opt(x.over_budget, strs)) &&
    (v.attempts === undefined || (int(v.attempts) && v.attempts >= 1)) &&
    (v.executions === undefined || (int(v.executions) && v.executions >= 0)) &&
    optNum(v.process_reward) &&
    optStr(v.started_at) &&
    optStr(v.ended_at)
  );
}

const countOrNames = (v: unknown) => (int(v) && v >= 0) || strs(v);

function grading(v: unknown): boolean {
  if (!isObj(v)) return false;
  const p = v.private_tests;
  return (
    optStr(v.verdict) &&
    opt(p, (x) => isObj(x) && opt(x.passed, countOrNames) && opt(x.failed, countOrNames)) &&
    optStr(v.artifact) &&
    optStr(v.artifact_digest) &&
    opt(v.process_scores, (s) => arrayOf(s, (x) => isObj(x) && optInt(x.step) && optStr(x.name) && optNum(x.value))) &&
    opt(v.grader, versioned)
  );
}

const optCount = (v: unknown) => v === undefined || (int(v) && v >= 0);
const update = (v: unknown) =>
  isObj(v) && optCount(v.step) && optStr(v.policy_version) && optNum(v.advantage) && optCount(v.tokens) && optCount(v.clipped);
const training = (v: unknown) =>
  isObj(v) && ints(v.sequence_ids) && bits(v.loss_mask) && opt(v.logprobs, (l) => nums(l, true)) && opt(v.update, update);

const sampling = (v: unknown) =>
  isObj(v) &&
  optNum(v.temperature) &&
  optNum(v.top_p) &&
  optInt(v.top_k) &&
  optInt(v.max_new_tokens) &&
  optInt(v.seed) &&
  (v.constrained === undefined || typeof v.constrained === 'boolean' || str(v.constrained));

const budget = (v: unknown) =>
  isObj(v) && optNum(v.max_actions) && optNum(v.max_seconds) && optNum(v.actions_used) && optNum(v.seconds_used);

/** True only when `v` certainly satisfies `v1Schema().rollout` (and zod would return it unchanged). */
export function isPlainValid(v: unknown): v is Rollout {
  if (!isObj(v)) return false;
  return (
    str(v.task_id) &&
    str(v.rollout_id) &&
    segments(v.segments) &&
    str(v.termination) &&
    (v.reward === undefined || v.reward === null || num(v.reward)) &&
    (v.attempt_id === undefined || v.attempt_id === null || str(v.attempt_id)) &&
    optStr(v.group_id) &&
    optStr(v.policy_version) &&
    optStr(v.environment_version) &&
    opt(v.tokenizer, versioned) &&
    opt(v.chat_template, versioned) &&
    opt(v.grader, versioned) &&
    opt(v.sampling, sampling) &&
    opt(v.budget, budget) &&
    opt(v.task, (t) => isObj(t) && optStr(t.prompt) && optStr(t.contract)) &&
    opt(v.steps, (s) => arrayOf(s, step)) &&
    opt(v.grading, grading) &&
    opt(v.training, training) &&
    optStr(v.started_at) &&
    optStr(v.ended_at)
  );
}

/** Fields of a segment and of `training` that `isPlainValid` proved flat (arrays of numbers, bits or strings). */
const FLAT_SEGMENT_FIELDS = new Set(['input_ids', 'generated_ids', 'old_logprobs', 'loss_mask', 'input_tokens', 'generated_tokens']);
const FLAT_TRAINING_FIELDS = new Set(['sequence_ids', 'loss_mask', 'logprobs']);

/**
 * `nestsDeeperThan(v, limit)` for a record `isPlainValid` said yes to, without walking the arrays it proved
 * flat. Those are the token ids and log-probabilities, nearly all of a record's values: walking them only to
 * learn they hold no object was about a tenth of the load's parse time (docs/adr/0027).
 */
export function plainNestsDeeperThan(v: Rollout, limit: number): boolean {
  const record = v as unknown as Obj;
  for (const key in record) {
    const value = record[key];
    if (key === 'segments') {
      for (const seg of value as Obj[])
        for (const k in seg) if (!FLAT_SEGMENT_FIELDS.has(k) && nestsDeeperThan(seg[k], limit - 3)) return true;
    } else if (key === 'training') {
      const t = value as Obj;
      for (const k in t) if (!FLAT_TRAINING_FIELDS.has(k) && nestsDeeperThan(t[k], limit - 2)) return true;
    } else if (nestsDeeperThan(value, limit - 1)) return true;
  }
  return false;
}
