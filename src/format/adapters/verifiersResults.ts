import { compact, idOf, int, isoFromUnixSeconds, type Json, list, locator, num, rec, rewardFor, str, unmapped } from './read';
import { samplingFrom } from './sampling';
import { chatTurns, type Message, normalizeMessages } from './transcript';
import { type Convert, ConvertError, type Termination } from './types';

/*
 * verifiers / prime-rl evaluation output: one `results.jsonl` row per rollout (RolloutOutput in
 * verifiers/legacy/types.py, written by verifiers/legacy/utils/save_utils.py), with the run's
 * `metadata.json` beside it. Rows hold chat text only, so segments are text segments.
 */

/** Stop conditions of MultiTurnEnv, ToolEnv and CliAgentEnv (the `@vf.stop` method names). */
const STOP_CONDITIONS: Record<string, Termination> = {
  no_tools_called: 'finished',
  has_final_env_response: 'finished',
  agent_completed: 'finished',
  max_total_completion_tokens_reached: 'budget_exhausted',
  prompt_too_long: 'budget_exhausted',
  timeout_reached: 'budget_exhausted',
};

/** `error.error` is the exception's class name (verifiers/legacy/errors.py). */
const ERRORS: Record<string, Termination> = {
  InfraError: 'infra_failure',
  SandboxError: 'infra_failure',
  BrowserSandboxError: 'infra_failure',
  TunnelError: 'infra_failure',
  AgentError: 'infra_failure',
  ModelError: 'infra_failure',
  InvalidModelResponseError: 'invalid_call',
  EmptyModelResponseError: 'invalid_call',
  ToolParseError: 'invalid_call',
  OverlongPromptError: 'budget_exhausted',
};

const MAPPED = ['example_id', 'prompt', 'completion', 'reward'];

/** The termination rule of docs/formats.md: an error first, then the stop condition, then the status flags. */
export function verifiersResultsTermination(row: Json, completion: readonly Message[]): string {
  const stop = str(row.stop_condition);
  const errorType = str(rec(row.error)?.error) ?? str(row.error);
  if (row.error !== undefined && row.error !== null) {
    const mapped = errorType === undefined ? undefined : ERRORS[errorType];
    if (mapped) return mapped;
    return stop ?? errorType ?? 'has_error';
  }
  if (stop === 'max_turns_reached') {
    // SingleTurnEnv is MultiTurnEnv with max_turns=1, so every single-turn rollout stops here; the cap
    // cut nothing when the last message is a final answer (an assistant message with no tool call).
    const last = completion[completion.length - 1];
    return last?.role === 'assistant' && !last.tool_calls?.length ? 'finished' : 'budget_exhausted';
  }
  if (stop !== undefined) return STOP_CONDITIONS[stop] ?? stop;
  if (row.is_truncated === true) return 'budget_exhausted';
  if (row.is_completed === true) return 'finished';
  return statuslessTermination(completion);
}

/**
 * Rows written before verifiers recorded a status (2025): MultiTurnEnv.rollout (verifiers/envs/
 * multiturn_env.py at 93096ca) leaves its loop only through `is_completed`, any other exception aborts
 * the whole `generate`, and eval.py writes results.jsonl only after every rollout was scored. So a row is
 * a finished loop; which stop fired is told only for tool environments (ToolEnv.is_completed: the last
 * message is an assistant message without tool calls). A last assistant message whose calls were never
 * answered can only be a cap (max_turns, prompt_too_long). Anything else (a game that ended on the
 * environment's reply, or on the turn cap) cannot be told apart: `unknown`.
 */
function statuslessTermination(completion: readonly Message[]): string {
  const last = completion[completion.length - 1];
  const toolEnv = completion.some((m) => m.role === 'tool' || (m.tool_calls?.length ?? 0) > 0);
  if (!toolEnv || last?.role !== 'assistant') return 'unknown';
  return last.tool_calls?.length ? 'budget_exhausted' : 'finished';
}

/**
 * Rows saved in 2025 lost the tool messages' `tool_call_id`: ToolEnv.call_tool sets one, but the rows
 * eval.py wrote (through a `datasets.Dataset`) keep only `role`, `content` and `tool_calls`.
 * ToolEnv.env_response (verifiers/envs/tool_env.py at 93096ca) answers `messages[-1]["tool_calls"]` in
 * order, one tool message per call, so the k-th tool message after an assistant message answers its k-th
 * call: that call's own id is set on the message (a join by position, marked `joined_by` on the step).
 * Returns the ids so joined. Messages that carry an id are left alone.
 */
function joinToolResultsByPosition(messages: Message[]): Set<string> {
  const joined = new Set<string>();
  let calls: string[] = [];
  let next = 0;
  for (const m of messages) {
    if (m.role === 'assistant') {
      calls = (m.tool_calls ?? []).flatMap((c) => (c.id === undefined ? [] : [c.id]));
      next = 0;
    } else if (m.role === 'tool') {
      const id = calls[next];
      next++;
      if (m.tool_call_id === undefined && id !== undefined) {
        m.tool_call_id = id;
        joined.add(id);
      }
    } else calls = [];
  }
  return joined;
}

/** What a run's metadata.json adds to each of its rows. */
function fromMetadata(metadata: unknown): { env?: string; fields: Json; extra: Json } {
  const m = rec(metadata);
  if (!m) return { fields: {}, extra: {} };
  const args = rec(m.sampling_args) ?? m; // before late 2025, temperature and max_tokens sat at the top level
  const sampling = samplingFrom(args);
  const version = rec(m.version_info);
  const fields: Json = compact({
    policy_version: str(m.model),
    environment_version: str(version?.env_version) ?? str(version?.env_commit),
    sampling,
  });
  const extra: Json = compact({ rollouts_per_example: int(m.rollouts_per_example), sampling_args: rec(m.sampling_args) });
  return { env: str(m.env_id) ?? str(m.env), fields, extra };
}

export const convertVerifiersResults: Convert = (row, ctx) => {
  const exampleKey = row.example_id !== undefined ? 'example_id' : 'id';
  const example = idOf(row[exampleKey]);
  if (example === undefined) throw new ConvertError('example_id: expected an integer or string (older files: id)');
  const prompt = row.prompt === null || row.prompt === undefined ? [] : row.prompt;
  const completion = row.completion === null || row.completion === undefined ? [] : row.completion;
  const reward = row.reward === null || row.reward === undefined ? null : num(row.reward);
  if (reward === undefined) throw new ConvertError('reward: expected a number or null');

  const meta = fromMetadata(ctx.metadata);
  const extra: Json = { ...meta.extra, ...unmapped(row, [...MAPPED, exampleKey]) };
  const timing = rec(row.timing);
  const record: Json = {
    source_format: 'verifiers-results',
    task_id: meta.env === undefined ? example : `${meta.env}/${example}`,
    rollout_id: locator(ctx),
    ...meta.fields,
    started_at: isoFromUnixSeconds(timing?.start_time),
    ended_at: isoFromUnixSeconds(rec(timing?.scoring)?.end),
  };

  if (typeof completion === 'string') {
    // A completion-format environment: raw text in, raw text out, no roles.
    if (typeof prompt === 'string') record.task = { prompt };
    else if (list(prompt)?.length) record.transcript = normalizeMessages(prompt, 'prompt');
    record.segments = [{ input_ids: [], generated_ids: [], old_logprobs: [], tool_call_id: null, text: completion }];
    record.termination = verifiersResultsTermination(row, []);
  } else {
    // A string prompt has no role to give it: it is the task's text, and the transcript starts after it.
    if (typeof prompt === 'string') record.task = { prompt };
    const promptMessages = typeof prompt === 'string' ? [] : normalizeMessages(prompt, 'prompt');
    const completionMessages = normalizeMessages(completion, 'completion');
    const transcript = [...promptMessages, ...completionMessages];
    const positional = joinToolResultsByPosition(transcript);
    const { segments, steps } = chatTurns(transcript, promptMessages.length);
    for (const step of steps) if (positional.has(String(step.tool_call_id))) step.joined_by = 'position';
    record.transcript = transcript;
    record.segments = segments;
    if (steps.length > 0) record.steps = steps;
    record.termination = verifiersResultsTermination(row, completionMessages);
  }
  record.reward = rewardFor(String(record.termination), reward, extra);
  if (Object.keys(extra).length > 0) record.extra = extra;
  return [compact(record)];
};
