import { isRecord, type Json } from '../read';

/*
 * The facts a record of an unknown tool keeps beside its conversation, found by name (docs/formats.md,
 * "Read by shape"): the first name of each list present at the top level, else in a nested object (up to
 * MAX_DEPTH, outside the conversation), earliest key first. Each list is ordered by how surely the name
 * means the fact.
 */

const FIELD_NAMES = {
  reward: ['reward', 'score', 'rewards.total', 'success', 'correct', 'is_correct', 'acc', 'accuracy', 'passed', 'resolved', 'pass'],
  task_id: ['task_id', 'instance_id', 'problem_id', 'question_id', 'example_id', 'sample_id', 'task_name'],
  rollout_id: ['rollout_id', 'trajectory_id', 'episode_id', 'run_id', 'trace_id', 'session_id', 'uid'],
  policy_version: ['policy_version', 'model', 'model_name', 'model_id'],
  status: ['termination', 'exit_status', 'finish_reason', 'stop_reason', 'stop_condition', 'status', 'exit_reason'],
  prompt: ['prompt', 'task', 'question', 'instruction', 'query', 'input'],
} as const;

export type Fact = keyof typeof FIELD_NAMES;

/** Which kinds of value each fact takes: a reward is a number or a verdict, a prompt text, ids text or numbers. */
const ACCEPTS: Record<Fact, (v: unknown) => boolean> = {
  reward: (v) => (typeof v === 'number' && Number.isFinite(v)) || typeof v === 'boolean',
  task_id: (v) => typeof v === 'string' || (typeof v === 'number' && Number.isInteger(v)),
  rollout_id: (v) => typeof v === 'string' || (typeof v === 'number' && Number.isInteger(v)),
  policy_version: (v) => typeof v === 'string',
  status: (v) => typeof v === 'string',
  prompt: (v) => typeof v === 'string' && v.length > 0,
};

const MAX_DEPTH = 3;

/** Each name split once: a name may be a path (`rewards.total`). */
const NAME_PARTS = new Map<string, readonly string[]>(Object.values(FIELD_NAMES).flatMap((names) => names.map((n) => [n, n.split('.')])));

function valueAt(v: unknown, parts: readonly string[]): unknown {
  let at = v;
  for (const key of parts) {
    if (!isRecord(at)) return undefined;
    at = at[key];
  }
  return at;
}

type Level = [Json, string][];

/**
 * Each fact's path in the record (dot-separated, as a field mapping writes it), or absent. `skip` is the
 * conversation's path: nothing inside it is a fact of the whole record.
 */
export function findFields(value: Json, skip: string): Partial<Record<Fact, string>> {
  // The objects at each depth are the same for every fact: listed once, when some fact first looks there.
  const levels: Level[] = [[[value, '']]];
  const levelAt = (depth: number): Level => {
    let level = levels[depth];
    if (level === undefined) {
      level = childrenOf(levelAt(depth - 1), skip);
      levels[depth] = level;
    }
    return level;
  };
  const out: Partial<Record<Fact, string>> = {};
  for (const fact of Object.keys(FIELD_NAMES) as Fact[]) {
    const path = findOne(levelAt, fact, skip);
    if (path !== undefined) out[fact] = path;
  }
  return out;
}

function findOne(levelAt: (depth: number) => Level, fact: Fact, skip: string): string | undefined {
  const names = FIELD_NAMES[fact];
  const accepts = ACCEPTS[fact];
  // Breadth first: a top-level `score` beats a nested `metrics.score`.
  for (let depth = 0; depth < MAX_DEPTH; depth++) {
    const level = levelAt(depth);
    if (level.length === 0) break;
    for (const name of names) {
      const parts = NAME_PARTS.get(name) ?? [name];
      for (const [obj, prefix] of level) {
        const path = `${prefix}${name}`;
        if (path === skip) continue;
        if (accepts(valueAt(obj, parts))) return path;
      }
    }
  }
  return undefined;
}

function childrenOf(level: Level, skip: string): Level {
  const next: Level = [];
  for (const [obj, prefix] of level) {
    for (const key in obj) {
      if (!Object.hasOwn(obj, key)) continue;
      const child = obj[key];
      const path = `${prefix}${key}`;
      // The object holding the conversation is searched too (`result.reward` beside `result.history`):
      // only the conversation itself is skipped, below.
      if (isRecord(child) && path !== skip && !key.includes('.')) next.push([child, `${path}.`]);
    }
  }
  return next;
}

/**
 * Status values that say how a rollout ended, as the tools that write them mean them; any other value stays
 * as written (and is W_UNKNOWN_TERMINATION), never a guess.
 */
export const STATUS_WORDS: Record<string, 'finished' | 'budget_exhausted' | 'invalid_call' | 'infra_failure' | 'cancelled'> = {
  finished: 'finished',
  submitted: 'finished',
  completed: 'finished',
  complete: 'finished',
  success: 'finished',
  done: 'finished',
  stop: 'finished',
  end_turn: 'finished',
  budget_exhausted: 'budget_exhausted',
  length: 'budget_exhausted',
  max_tokens: 'budget_exhausted',
  max_turns: 'budget_exhausted',
  max_steps: 'budget_exhausted',
  max_iterations: 'budget_exhausted',
  limits_exceeded: 'budget_exhausted',
  timeout: 'budget_exhausted',
  time_limit: 'budget_exhausted',
  invalid_call: 'invalid_call',
  infra_failure: 'infra_failure',
  cancelled: 'cancelled',
  canceled: 'cancelled',
  interrupted: 'cancelled',
};
