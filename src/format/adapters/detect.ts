import { isInspectLog } from './inspectLog';
import { isNemoGymRollout } from './nemoGym';
import { isChatLine } from './openaiChat';
import { isOpenHandsEval, isOpenHandsEvent } from './openHands';
import { isRecord, type Json } from './read';
import { isTau2Results, isTauBenchResult } from './tauBench';
import type { FormatId } from './types';

/** What detection looks at: the file's name and its first parsed JSON value(s). */
export interface DetectSample {
  name: string;
  values: readonly unknown[];
}

/**
 * Content rules, most specific first; v1 first of all so a v1 file is never converted. v1's own field
 * `segments` with one other required field is enough, whatever their values: a v1 record that lacks a
 * field or has one of the wrong type is a schema error on its own line and must not turn the whole file
 * into another format. (Chat lines may carry `task_id`/`rollout_id`/`termination`, never `segments`.)
 */
const RULES: ReadonlyArray<[FormatId, (v: Json) => boolean]> = [
  ['v1', (v) => 'segments' in v && ('rollout_id' in v || 'task_id' in v || 'termination' in v)],
  ['verifiers-traces', (v) => Array.isArray(v.traces) || (Array.isArray(v.nodes) && ('agent' in v || 'calls' in v))],
  ['rllm-episode', (v) => Array.isArray(v.trajectories)],
  [
    'swe-agent-traj',
    (v) =>
      (Array.isArray(v.trajectory) && ('history' in v || 'info' in v)) ||
      (Array.isArray(v.attempts) && isRecord(v.attempts[0]) && 'trajectory' in v.attempts[0]),
  ],
  ['verifiers-results', (v) => 'prompt' in v && 'completion' in v && ('example_id' in v || 'id' in v || 'reward' in v)],
  ['openai-chat', isChatLine],
  ['inspect-log', isInspectLog],
  ['tau2-bench', isTau2Results],
  ['tau-bench', isTauBenchResult],
  ['nemo-gym', isNemoGymRollout],
  ['openhands-eval', isOpenHandsEval],
  ['openhands-events', isOpenHandsEvent],
];

/** The names these tools give their files, used only when the content matched no rule (so errors name the right fields). */
const NAMES: ReadonlyArray<[FormatId, RegExp]> = [
  ['swe-agent-traj', /\.traj$/i],
  ['verifiers-traces', /(^|[\\/])traces\.jsonl(\.gz)?$/i],
  ['verifiers-results', /(^|[\\/])results\.jsonl(\.gz)?$/i],
  ['inspect-eval', /\.eval$/i],
];

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
 * The format of a file from its name and first JSON value(s), or null when nothing matches (the caller
 * then reads it as v1, so each line reports what v1 field it lacks). Pure: the browser and the CLI share it.
 */
export function detectFormat(sample: DetectSample): FormatId | null {
  return detectByContent(sample.values) ?? NAMES.find(([, pattern]) => pattern.test(sample.name))?.[0] ?? null;
}

/** The format the content alone shows (the file's name aside), or null. */
export function detectByContent(values: readonly unknown[]): FormatId | null {
  const value = firstObject(values);
  return (value && RULES.find(([, matches]) => matches(value))?.[0]) ?? null;
}
