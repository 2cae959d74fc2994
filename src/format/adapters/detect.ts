import { FORMAT_INFO, FORMAT_LABELS } from './formatInfo';
import { isInspectLog } from './inspectLog';
import { isNemoGymRollout } from './nemoGym';
import { isChatLine } from './openaiChat';
import { isOpenHandsEval, isOpenHandsEvent } from './openHands';
import { isOtelTrace } from './otelGenai';
import { isRecord, type Json } from './read';
import { hasConversation } from './structural/readByShape';
import { isTau2Results, isTauBenchResult } from './tauBench';
import { FORMAT_IDS, type FormatId } from './types';

/** What detection looks at: the file's name and its first parsed JSON value(s). */
export interface DetectSample {
  name: string;
  values: readonly unknown[];
}

/**
 * The detection order (docs/formats.md, "How a file is read"): each content rule, most specific first; v1 first of all so a v1 file is never converted. v1's own field
 * `segments` with one other required field is enough, whatever their values: a v1 record that lacks a
 * field or has one of the wrong type is a schema error on its own line and must not turn the whole file
 * into another format. (Chat lines may carry `task_id`/`rollout_id`/`termination`, never `segments`.)
 */
export const RULES: ReadonlyArray<[FormatId, (v: Json) => boolean]> = [
  ['v1', (v) => 'segments' in v && ('rollout_id' in v || 'task_id' in v || 'termination' in v)],
  // Early: a NeMo Gym rollout of a gymnasium agent also carries a SWE-agent-like `trajectory` and `info`.
  ['nemo-gym', isNemoGymRollout],
  ['verifiers-traces', (v) => Array.isArray(v.traces) || (Array.isArray(v.nodes) && ('agent' in v || 'calls' in v))],
  ['rllm-episode', (v) => Array.isArray(v.trajectories)],
  [
    'swe-agent-traj',
    (v) =>
      (Array.isArray(v.trajectory) && ('history' in v || 'info' in v)) ||
      (Array.isArray(v.attempts) && isRecord(v.attempts[0]) && 'trajectory' in v.attempts[0]),
  ],
  // mini-swe-agent's DefaultAgent.serialize: `trajectory_format: "mini-swe-agent-1.x"`, or its `info` block.
  [
    'mini-swe-agent',
    (v) =>
      Array.isArray(v.messages) &&
      ((typeof v.trajectory_format === 'string' && v.trajectory_format.startsWith('mini-swe-agent')) ||
        (isRecord(v.info) && ('mini_version' in v.info || 'exit_status' in v.info))),
  ],
  [
    'harbor-atif',
    (v) =>
      Array.isArray(v.steps) &&
      ((typeof v.schema_version === 'string' && v.schema_version.startsWith('ATIF')) || ('session_id' in v && isRecord(v.agent))),
  ],
  ['atropos-groups', (v) => Array.isArray(v.tokens) && Array.isArray(v.masks) && Array.isArray(v.scores)],
  ['verifiers-results', (v) => 'prompt' in v && 'completion' in v && ('example_id' in v || 'id' in v || 'reward' in v)],
  // veRL's RayPPOTrainer._dump_generations: `input`, `output`, `score`, `step` (+ `gts`, reward extras).
  ['verl-rollouts', (v) => typeof v.input === 'string' && typeof v.output === 'string' && 'score' in v && 'step' in v],
  ['openai-chat', isChatLine],
  ['inspect-log', isInspectLog],
  ['tau2-bench', isTau2Results],
  ['tau-bench', isTauBenchResult],
  ['openhands-eval', isOpenHandsEval],
  ['openhands-events', isOpenHandsEvent],
  ['otel-genai', isOtelTrace],
  // Last: a record no named format took, holding a conversation with a model turn (structural/readByShape.ts).
  ['structural', hasConversation],
];

type Named = [FormatId, RegExp];
/** The names tools give their files (formatInfo.ts), used only when the content matched no rule (so errors name the right fields). */
const NAMES: readonly Named[] = FORMAT_IDS.flatMap((id): Named[] => {
  const names = FORMAT_INFO[id].names;
  return names ? [[id, names]] : [];
});

/** A bare JSON array of chat messages: the older mini-swe-agent trajectory (its tests' `*.traj.json`). */
export function isMessageArray(v: unknown): v is Json[] {
  return Array.isArray(v) && v.length > 0 && v.every((m) => isRecord(m) && typeof m.role === 'string');
}

function firstObject(values: readonly unknown[]): Json | undefined {
  for (const v of values) {
    if (isRecord(v)) return v;
    if (Array.isArray(v)) {
      const inner = v.find(isRecord);
      if (inner) return inner;
    }
  }
  return undefined;
}

/**
 * The format of a file from its name and first JSON value(s), or null when nothing matches: the file
 * is then of no format Trajscope knows (`describeUnknown` says what it looks like). Pure: the browser and
 * the CLI share it.
 */
export function detectFormat(sample: DetectSample): FormatId | null {
  return detectByContent(sample.values) ?? detectByName(sample.name);
}

/** The format a file's name alone suggests, or null. */
export function detectByName(name: string): FormatId | null {
  return NAMES.find(([, pattern]) => pattern.test(name))?.[0] ?? null;
}

/** The format the content alone shows (the file's name aside), or null. */
export function detectByContent(values: readonly unknown[]): FormatId | null {
  if (values.some(isMessageArray)) return 'mini-swe-agent';
  const value = firstObject(values);
  return (value && RULES.find(([, matches]) => matches(value))?.[0]) ?? null;
}

/** The formats detection knows, for messages: "Trajscope v1, verifiers results.jsonl, …". */
export function knownFormats(): string {
  return Object.entries(FORMAT_LABELS)
    .filter(([id]) => id !== 'mapped')
    .map(([, label]) => label)
    .join(', ');
}

/** What a file of no known format looks like, in a few words: its first value's shape and fields. */
export function describeValue(value: unknown): string {
  if (Array.isArray(value)) {
    const inner = value.find(isRecord);
    return inner ? `a JSON array of objects with ${fieldList(inner)}` : `a JSON array of ${value.length} non-objects`;
  }
  if (isRecord(value)) return `JSON objects with ${fieldList(value)}`;
  return `JSON ${value === null ? 'null' : typeof value} values`;
}

function fieldList(v: Json): string {
  const keys = Object.keys(v);
  if (keys.length === 0) return 'no fields';
  const shown = keys.slice(0, 6).map((k) => `"${k.length > 40 ? `${k.slice(0, 40)}…` : k}"`);
  return `fields ${shown.join(', ')}${keys.length > 6 ? ` (+${keys.length - 6} more)` : ''}`;
}
