import { compact, idOf, int, intArray, type Json, list, locator, num, numArray, policySpan, rec, rewardFor, str, unmapped } from './read';
import { contentText, type Message, normalizeMessage } from './transcript';
import { type Convert, type ConvertContext, ConvertError, type Termination } from './types';

/*
 * rLLM episodes (rllm/types.py: Episode -> Trajectory -> Step; docs/core-concepts/episodes-trajectories-steps.mdx),
 * as `rllm eval` stores them (`episode.model_dump(mode="json")`, rllm/eval/episode_store.py) or as
 * `Episode.to_dict()` writes them. One v1 rollout per trajectory; one segment per step (one LLM call).
 */

/** rllm/workflows/workflow.py TerminationReason. `unknown` is what a workflow that returns normally gets. */
const TERMINATION_REASONS: Record<string, Termination> = {
  env_done: 'finished',
  max_turns_exceeded: 'budget_exhausted',
  max_response_length_exceeded: 'budget_exhausted',
  max_prompt_length_exceeded: 'budget_exhausted',
  timeout: 'budget_exhausted',
  // The engines retry an errored episode (rllm/engine/agent_workflow_engine.py): invalid, to be retried.
  error: 'infra_failure',
};

/** The v1 termination of an episode's `termination_reason` (docs/formats.md, rLLM table). */
export function rllmTermination(reason: unknown): string {
  // Episode.from_dict reads a missing reason as UNKNOWN; a `str()`-ed enum reads `TerminationReason.ENV_DONE`.
  const raw = str(reason)?.replace(/^TerminationReason\./, '');
  if (raw === undefined || raw === '') return 'unknown';
  const value = raw === raw.toUpperCase() ? raw.toLowerCase() : raw;
  return TERMINATION_REASONS[value] ?? value;
}

const STEP_MAPPED = ['id', 'prompt_ids', 'response_ids', 'logprobs', 'chat_completions', 'observation', 'reward', 'model_response'];

function sameMessages(a: readonly unknown[], b: readonly unknown[]): boolean {
  return a.every((m, i) => JSON.stringify(m) === JSON.stringify(b[i]));
}

/** True when every step's chat_completions extends the previous step's (rLLM's Trajectory.is_cumulative). */
function isCumulative(histories: readonly unknown[][]): boolean {
  return histories.every((h, i) => {
    const prev = histories[i - 1];
    return prev === undefined || (h.length >= prev.length && sameMessages(prev, h));
  });
}

function messagesOf(raw: unknown[], path: string): Message[] {
  return raw.flatMap((m, i) => {
    const msg = normalizeMessage(m, `${path}[${i}]`);
    return msg ? [msg] : [];
  });
}

/** A tool-call-shaped action `{name, arguments}` names the tool; any other action stays under extra. */
function stepOf(step: Json, id: string): Json {
  const action = rec(step.action);
  const name = str(action?.name);
  const args = rec(action?.arguments);
  const observation = step.observation;
  return compact({
    tool_call_id: id,
    tool: name ?? 'action',
    args,
    observation: { text: typeof observation === 'string' ? observation : observation == null ? '' : JSON.stringify(observation) },
    // rLLM's Step.reward defaults to 0.0, so an unscored step reads as 0 here too.
    process_reward: num(step.reward),
  });
}

function trajectoryRecord(traj: Json, episode: Json, ctx: ConvertContext, t: number): Json {
  const steps = list(traj.steps) ?? [];
  const histories = steps.map((s) => list(rec(s)?.chat_completions) ?? []);
  const cumulative = isCumulative(histories);
  const lastHistory = histories[histories.length - 1] ?? [];
  const transcript =
    cumulative && lastHistory.length > 0
      ? messagesOf(lastHistory, `trajectories[${t}].steps[${steps.length - 1}].chat_completions`)
      : undefined;
  const segments: Json[] = [];
  const v1Steps: Json[] = [];
  const versions: number[] = [];
  steps.forEach((raw, i) => {
    const at = `trajectories[${t}].steps[${i}]`;
    const step = rec(raw);
    if (!step) throw new ConvertError(`${at}: expected a step object`);
    const history = histories[i] ?? [];
    const lastMessage = rec(history[history.length - 1]);
    const generatedHere = lastMessage?.role === 'assistant';
    const id = idOf(step.id);
    const executed = id !== undefined && (step.action != null || step.observation != null);
    if (executed) v1Steps.push(stepOf(step, id));
    const inputIds = intArray(step.prompt_ids ?? []);
    const version = int(step.weight_version) ?? int(rec(step.model_output)?.weight_version);
    if (version !== undefined) versions.push(version);
    const extra: Json = compact({
      ...unmapped(step, STEP_MAPPED),
      // prompt_ids may hold multimodal entries, not token ids: then they are kept here, not as input_ids.
      prompt_ids: inputIds ? undefined : step.prompt_ids,
      model_output: rec(step.model_output)
        ? unmapped(rec(step.model_output) ?? {}, ['prompt_ids', 'completion_ids', 'logprobs'])
        : step.model_output,
      // Without a v1 step to hold them, the step's reward and observation stay here.
      reward: executed ? undefined : step.reward,
      observation: executed ? undefined : step.observation,
      // A generated message outside any transcript keeps its own fields (reasoning, tool calls).
      generated_message: !transcript && generatedHere ? normalizeMessage(lastMessage, `${at}.chat_completions`) : undefined,
    });
    const text = str(step.model_response) || (generatedHere ? contentText(lastMessage?.content).text : null) || undefined;
    segments.push(
      compact({
        input_ids: inputIds ?? [],
        generated_ids: intArray(step.response_ids ?? []) ?? [],
        old_logprobs: numArray(step.logprobs ?? []) ?? [],
        tool_call_id: executed ? id : null,
        text,
        transcript_index: transcript && generatedHere ? history.length - 1 : undefined,
        context_messages: !generatedHere
          ? messagesOf(history, `${at}.chat_completions`)
          : !transcript
            ? messagesOf(history.slice(0, -1), `${at}.chat_completions`)
            : undefined,
        extra: Object.keys(extra).length > 0 ? extra : undefined,
      }),
    );
  });

  const episodeId = str(episode.id);
  const taskId = episodeId?.split(':')[0] || idOf(rec(episode.task)?.id) || locator(ctx);
  const name = str(traj.name) ?? 'default_traj_name';
  const termination = rllmTermination(episode.termination_reason);
  const reward = num(traj.reward) ?? null;
  const extra: Json = compact({ ...unmapped(traj, ['uid', 'steps', 'reward']), episode: unmapped(episode, ['trajectories']) });
  return compact({
    source_format: 'rllm-episode',
    task_id: taskId,
    rollout_id: idOf(traj.uid) ?? `${locator(ctx)}/trajectories[${t}]`,
    // rLLM groups trajectories for advantages by `{task_id}:{trajectory.name}`.
    group_id: `${taskId}:${name}`,
    policy_version: policySpan(versions),
    transcript,
    segments,
    steps: v1Steps.length > 0 ? v1Steps : undefined,
    termination,
    reward: rewardFor(termination, reward, extra),
    extra,
  });
}

export const convertRllmEpisode: Convert = (episode, ctx) => {
  const trajectories = list(episode.trajectories);
  if (!trajectories) throw new ConvertError('trajectories: expected an array');
  if (trajectories.length === 0) {
    // An episode that failed before any trajectory stays visible as a rollout with no segments.
    const termination = rllmTermination(episode.termination_reason);
    const taskId = str(episode.id)?.split(':')[0] || idOf(rec(episode.task)?.id) || locator(ctx);
    const extra = unmapped(episode, ['trajectories']);
    return [
      compact({
        source_format: 'rllm-episode',
        task_id: taskId,
        rollout_id: idOf(episode.id) ?? locator(ctx),
        segments: [],
        termination,
        reward: null,
        extra,
      }),
    ];
  }
  return trajectories.map((t, i) => {
    const traj = rec(t);
    if (!traj) throw new ConvertError(`trajectories[${i}]: expected a trajectory object`);
    return trajectoryRecord(traj, episode, ctx, i);
  });
};
