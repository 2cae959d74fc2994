import { parseJson } from '../json';
import { compact, idOf, type Json, list, locator, num, rec, rewardFor, str, unmapped } from './read';
import { type Message, normalizeMessage, parsedArguments } from './transcript';
import { type Convert, type ConvertContext, ConvertError, type Termination } from './types';

/*
 * SWE-agent `<instance_id>.traj` files (docs/usage/trajectories.md): `trajectory` (one step per model
 * call: response, thought, action, observation, query, state), `history` (the message history),
 * `info` (exit_status, submission, model_stats) and `replay_config` (the run config as JSON text), as
 * DefaultAgent.get_trajectory_data writes them (sweagent/agent/agents.py, types in sweagent/types.py).
 * A RetryAgent file holds every attempt under `attempts`.
 */

/** Exit statuses set in sweagent/agent/agents.py (forward_with_handling, handle_action, handle_submission). */
const EXIT_STATUSES: Record<string, Termination> = {
  submitted: 'finished',
  exit_command: 'finished', // the model ran `exit`
  exit_forfeit: 'finished', // the model gave up with `exit_forfeit`
  exit_total_execution_time: 'budget_exhausted',
  exit_command_timeout: 'budget_exhausted',
  exit_context: 'budget_exhausted',
  exit_cost: 'budget_exhausted',
  exit_format: 'invalid_call', // repeated format / blocklist / bash syntax errors
  exit_api: 'infra_failure',
  exit_environment_error: 'infra_failure',
  exit_error: 'infra_failure',
};

/** `submitted (exit_cost)` is an autosubmission after the run ended for `exit_cost`: the inner cause decides. */
export function sweAgentTermination(status: unknown): string {
  const s = str(status);
  if (s === undefined || s === '') return 'unknown';
  const inner = /^submitted \((.+)\)$/.exec(s)?.[1];
  if (inner !== undefined) return EXIT_STATUSES[inner] ?? s;
  return EXIT_STATUSES[s] ?? s;
}

function messages(raw: unknown, path: string): Message[] {
  return (list(raw) ?? []).flatMap((m, i) => {
    // A function-calling history's observation names its calls in `tool_call_ids` (one per action).
    const ids = list(rec(m)?.tool_call_ids);
    const value = ids && rec(m)?.tool_call_id === undefined ? { ...rec(m), tool_call_id: ids[0] } : m;
    const msg = normalizeMessage(value, `${path}[${i}]`);
    return msg ? [msg] : [];
  });
}

/** `replay_config` is the run config serialized to JSON text; a broken one reads as absent. */
function replayConfig(raw: unknown): Json | undefined {
  if (typeof raw !== 'string') return rec(raw);
  try {
    return rec(parseJson(raw));
  } catch {
    return undefined;
  }
}

function instanceIdFromName(file: string): string | undefined {
  const name = file.split(/[\\/]/).pop() ?? '';
  return /\.traj$/i.test(name) ? name.slice(0, -'.traj'.length) : undefined;
}

function attemptRecord(attempt: Json, ctx: ConvertContext, at: string | null, runInfo: unknown): Json {
  const info = rec(attempt.info);
  const replay = replayConfig(attempt.replay_config);
  const problem = rec(replay?.problem_statement);
  const model = rec(rec(replay?.agent)?.model);
  const trajectory = list(attempt.trajectory);
  if (!trajectory) throw new ConvertError(`${at === null ? '' : `${at}.`}trajectory: expected an array of steps`);
  const transcript = messages(attempt.history, 'history');
  // With function calling, the history's action messages carry the call ids, one per trajectory step
  // (the main agent's, in order; demonstrations are marked is_demo).
  const actions = transcript.filter((m) => m.role === 'assistant' && m.is_demo === undefined && (m.agent ?? 'main') !== 'demo');
  const withCalls = actions.filter((m) => (m.tool_calls?.length ?? 0) > 0);
  const rolloutId = at === null ? locator(ctx) : `${locator(ctx)}/${at}`;
  const steps: Json[] = [];
  const segments = trajectory.map((raw, i) => {
    const step = rec(raw);
    if (!step) throw new ConvertError(`${at === null ? '' : `${at}.`}trajectory[${i}]: expected a step object`);
    const query = messages(step.query, `trajectory[${i}].query`);
    const calls = withCalls.length === trajectory.length ? (withCalls[i]?.tool_calls ?? []) : [];
    const ids = calls.flatMap((c) => (c.id === undefined ? [] : [c.id]));
    const action = str(step.action);
    // An executed action without a recorded call id still gets a step: its location stands in, marked.
    const id = ids[0] ?? (action !== undefined && action.trim() !== '' ? `${rolloutId}/trajectory[${i}]` : undefined);
    if (id !== undefined) {
      const call = calls[0];
      steps.push(
        compact({
          tool_call_id: id,
          tool_call_id_is_locator: ids[0] === undefined ? true : undefined,
          tool: call?.name ?? action?.trim().split(/\s+/)[0] ?? '',
          args: call ? parsedArguments(call) : action !== undefined ? { command: action } : undefined,
          observation: { text: str(step.observation) ?? '' },
        }),
      );
    }
    return compact({
      input_ids: [],
      generated_ids: [],
      old_logprobs: [],
      tool_call_id: id ?? null,
      tool_call_ids: ids.length > 1 ? ids : undefined,
      tool_call_id_is_locator: id !== undefined && ids[0] === undefined ? true : undefined,
      text: str(step.response),
      context_messages: query.length > 0 ? query : undefined,
      // A query entry that is not a message (SWE-agent's default is `[{}]`) keeps the raw query here.
      extra: unmapped(step, query.length === (list(step.query)?.length ?? 0) ? ['response', 'query'] : ['response']),
    });
  });
  const termination = sweAgentTermination(info?.exit_status);
  const historyIsMessages = transcript.length === (list(attempt.history)?.length ?? 0);
  const extra: Json = compact({
    ...unmapped(attempt, historyIsMessages ? ['trajectory', 'history'] : ['trajectory']),
    retry_info: runInfo,
  });
  const submission = str(info?.submission);
  const sampling = compact({ temperature: num(model?.temperature), top_p: num(model?.top_p) });
  return compact({
    source_format: 'swe-agent-traj',
    task_id: idOf(problem?.id) ?? instanceIdFromName(ctx.file) ?? locator(ctx),
    // A .traj names no rollout id: its location stands in.
    rollout_id: rolloutId,
    policy_version: str(model?.name),
    sampling: Object.keys(sampling).length > 0 ? sampling : undefined,
    task: typeof problem?.text === 'string' ? { prompt: problem.text } : undefined,
    transcript,
    segments,
    steps: steps.length > 0 ? steps : undefined,
    termination,
    // SWE-agent does not grade: evaluation of the submission is a separate step (SWE-bench).
    reward: rewardFor(termination, null, extra),
    grading: submission ? { artifact: submission } : undefined,
    extra,
  });
}

export const convertSweAgentTraj: Convert = (value, ctx) => {
  const attempts = list(value.attempts);
  if (attempts && attempts.length > 0) {
    // The top level repeats the chosen attempt; each attempt is converted once, from `attempts`.
    // Its `info` holds what the retry loop decided (best_attempt_idx, reviewer output, total cost).
    return attempts.map((a, i) => {
      const attempt = rec(a);
      if (!attempt) throw new ConvertError(`attempts[${i}]: expected an attempt object`);
      return attemptRecord(attempt, ctx, `attempts[${i}]`, value.info);
    });
  }
  return [attemptRecord(value, ctx, null, undefined)];
};
