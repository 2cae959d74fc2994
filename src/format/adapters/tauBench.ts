import { compact, idOf, int, type Json, list, locator, num, rec, rewardFor, str, unmapped } from './read';
import { samplingFrom } from './sampling';
import { tickMessages } from './tau2Ticks';
import { type Message, normalizeMessage, parsedArguments, type ToolCall, textSegment } from './transcript';
import { type Convert, type ConvertContext, ConvertError, type Termination } from './types';

/*
 * tau-bench (sierra-research/tau-bench, tau_bench/run.py): a results file is a JSON array of
 * `EnvRunResult {task_id, reward, info, traj, trial}`; `traj` is the agent's chat (OpenAI messages).
 * tau2-bench (sierra-research/tau2-bench, src/tau2/data_model/simulation.py): `Results {timestamp, info,
 * tasks, simulations}`, each `SimulationRun` with `messages`, `reward_info`, `termination_reason`, `trial`;
 * a full-duplex (voice) simulation has `ticks` in place of `messages`, read into messages by tau2Ticks.ts.
 * Trials of one task share its task id, so they form one group.
 */

/** `TerminationReason` of tau2 (data_model/simulation.py). */
const TAU2_REASONS: Record<string, Termination> = {
  user_stop: 'finished',
  agent_stop: 'finished',
  max_steps: 'budget_exhausted',
  timeout: 'budget_exhausted',
  context_window_exceeded: 'budget_exhausted',
  too_many_errors: 'invalid_call', // more than max_errors failed tool calls
  agent_error: 'infra_failure',
  user_error: 'infra_failure', // the user simulator failed
  infrastructure_error: 'infra_failure',
  unexpected_error: 'infra_failure',
};

export function tau2Termination(reason: unknown): string {
  const s = str(reason);
  if (s === undefined || s === '') return 'unknown';
  const key = s.startsWith('TerminationReason.') ? s.slice('TerminationReason.'.length).toLowerCase() : s;
  return TAU2_REASONS[key] ?? s;
}

/**
 * Segments and steps of a chat whose tool call ids may repeat: tau-bench trajectories reuse an id for a
 * later, different call (73 of 1164 calls in the published gpt-4o airline file). A tool message answers
 * the latest call with its id; a repeated id gets `#n` (its occurrence) on the segment and step, the
 * source id kept as `source_tool_call_id`, so two different calls are never read as one executed twice.
 * Only `assistant` messages are the policy's generations (segments). A call made by a `user` message (tau2's
 * user simulator calling its own tools, e.g. the telecom phone's, answered by a tool message with
 * `requestor: "user"`) was executed by the environment too: its step names its actor, `actor: "user"`, and has
 * no segment (no generation of the policy made it). The agent's steps carry no `actor`: absent is the policy.
 * `annotate` adds what a source keeps on the message to the segment or step made from it (a voice run's timing).
 */
function chatTurnsWithReusedIds(
  messages: readonly Message[],
  first: number,
  annotate?: (made: Json, from: Message) => void,
): { segments: Json[]; steps: Json[] } {
  const seen = new Map<string, number>();
  const latest = new Map<string, { call: ToolCall; id: string; actor?: string }>();
  const segments: Json[] = [];
  const steps: Json[] = [];
  /** Registers a message's calls under their (occurrence-suffixed) ids; `actor` for calls the policy did not make. */
  const register = (m: Message, actor?: string): string[] => {
    const ids: string[] = [];
    for (const call of m.tool_calls ?? []) {
      if (call.id === undefined) continue;
      const n = (seen.get(call.id) ?? 0) + 1;
      seen.set(call.id, n);
      const id = n === 1 ? call.id : `${call.id}#${n}`;
      latest.set(call.id, actor === undefined ? { call, id } : { call, id, actor });
      ids.push(id);
    }
    return ids;
  };
  messages.forEach((m, i) => {
    if (i < first) return;
    if (m.role === 'assistant') {
      const segment = textSegment(m, i);
      const ids = register(m);
      segment.tool_call_id = ids[0] ?? null;
      if (ids.length > 1) segment.tool_call_ids = ids;
      else delete segment.tool_call_ids;
      annotate?.(segment, m);
      segments.push(segment);
    } else if (m.role === 'user' && m.tool_calls !== undefined) {
      register(m, 'user');
    } else if (m.role === 'tool' && m.tool_call_id !== undefined) {
      const joined = latest.get(m.tool_call_id);
      if (!joined) return;
      const step: Json = { tool_call_id: joined.id, tool: joined.call.name ?? str(m.name) ?? '', observation: { text: m.content ?? '' } };
      if (joined.actor !== undefined) step.actor = joined.actor;
      if (joined.id !== m.tool_call_id) step.source_tool_call_id = m.tool_call_id;
      const args = parsedArguments(joined.call);
      if (args) step.args = args;
      const error = m.error;
      if (error === true && isObservation(step.observation)) step.observation.status = 'error';
      annotate?.(step, m);
      steps.push(step);
      latest.delete(m.tool_call_id);
    }
  });
  return { segments, steps };
}

function isObservation(v: unknown): v is Json {
  return typeof v === 'object' && v !== null;
}

function messagesOf(raw: unknown, path: string): Message[] {
  const items = list(raw);
  if (!items) throw new ConvertError(`${path}: expected an array of chat messages`);
  return items.map((m, i) => {
    // tau2 writes a tool result's call id as `id`; tau-bench as `tool_call_id`.
    const r = rec(m);
    const withId = r && r.role === 'tool' && r.tool_call_id === undefined && r.id !== undefined ? { ...r, tool_call_id: r.id } : m;
    const message = normalizeMessage(withId, `${path}[${i}]`);
    if (!message) throw new ConvertError(`${path}[${i}]: expected a chat message with a string "role"`);
    return message;
  });
}

/** The first message the agent generated: tau-bench's traj starts with the system prompt and the user's opening. */
function firstAssistant(messages: readonly Message[]): number {
  const i = messages.findIndex((m) => m.role === 'assistant');
  return i === -1 ? messages.length : i;
}

/**
 * tau-bench's termination, from what `run.py` and `Env.step` write: an exception in the run becomes
 * `info.error` (with reward 0.0 and an empty traj, not a score); `info.reward_info` is set only on the
 * step where `done` became true (the user sent ###STOP### or a terminate tool ran); without it the agent
 * loop ran out of `max_num_steps`.
 */
function tauBenchTermination(info: Json | undefined): Termination {
  if (info?.error !== undefined) return 'infra_failure';
  return info?.reward_info !== undefined ? 'finished' : 'budget_exhausted';
}

export const convertTauBench: Convert = (row, ctx) => {
  const task = idOf(row.task_id);
  if (task === undefined) throw new ConvertError('task_id: expected an integer or string');
  const reward = num(row.reward) ?? null;
  if (row.reward !== undefined && row.reward !== null && reward === null) throw new ConvertError('reward: expected a number');
  const messages = messagesOf(row.traj ?? [], 'traj');
  const info = rec(row.info);
  const { segments, steps } = chatTurnsWithReusedIds(messages, firstAssistant(messages));
  const termination = tauBenchTermination(info);
  const extra: Json = compact({ ...unmapped(row, ['task_id', 'reward', 'traj']) });
  const trial = int(row.trial);
  return [
    compact({
      source_format: 'tau-bench',
      task_id: task,
      rollout_id: trial === undefined ? locator(ctx) : `${task}/trial-${trial}`,
      // `info.task.instruction` is the simulated user's brief, never shown to the agent: it stays in extra.info.
      transcript: messages,
      segments,
      steps: steps.length > 0 ? steps : undefined,
      termination,
      reward: rewardFor(termination, reward, extra),
      extra,
    }),
  ];
};

/**
 * tau2's orchestrator opens every simulation with `DEFAULT_FIRST_AGENT_MESSAGE` (orchestrator/orchestrator.py:
 * "Hi! How can I help you today?", cost 0): written by the harness, not generated, so it is context.
 * A generated message carries the LLM response as `raw_data`.
 */
function orchestratorGreeting(raw: unknown): boolean {
  const m = rec(list(raw)?.[0]);
  return (
    m?.role === 'assistant' && m.content === 'Hi! How can I help you today?' && (m.raw_data ?? null) === null && (m.usage ?? null) === null
  );
}

/** What tau2Ticks.ts puts on a voice message (ticks, seconds, audio only), carried to the segment or step made from it. */
function withTiming(made: Json, from: Message): void {
  for (const key of ['ticks', 'seconds', 'audio_only']) if (from[key] !== undefined) made[key] = from[key];
}

/**
 * The conversation as `SimulationRun.get_messages` takes it: `messages` when recorded (half-duplex), else the
 * messages of the `ticks` (full-duplex), whose segments and steps keep their ticks and seconds.
 */
function tau2Conversation(
  sim: Json,
  runInfo: Json | undefined,
  where: string,
): { messages: Message[]; first: number; annotate?: (made: Json, from: Message) => void } {
  if ((sim.messages ?? null) === null && (sim.ticks ?? null) !== null) {
    const tickSeconds = num(rec(runInfo?.audio_native_config)?.tick_duration_seconds);
    const { messages, first } = tickMessages(sim.ticks, `${where}.ticks`, tickSeconds);
    return { messages: messagesOf(messages, `${where}.ticks`), first, annotate: withTiming };
  }
  return { messages: messagesOf(sim.messages ?? [], `${where}.messages`), first: orchestratorGreeting(sim.messages) ? 1 : 0 };
}

/** One tau2 SimulationRun → a rollout; `run` is the file's `info` (agent and user models, sampling). */
function tau2Simulation(sim: Json, runInfo: Json | undefined, ctx: ConvertContext, where: string): Json {
  const task = idOf(sim.task_id);
  if (task === undefined) throw new ConvertError(`${where}.task_id: expected a string or integer`);
  const { messages, first, annotate } = tau2Conversation(sim, runInfo, where);
  const rewardInfo = rec(sim.reward_info);
  const reward = num(rewardInfo?.reward) ?? null;
  const termination = tau2Termination(sim.termination_reason);
  const { segments, steps } = chatTurnsWithReusedIds(messages, first, annotate);
  const agent = rec(runInfo?.agent_info);
  // A voice run's ticks stay in extra: per-tick detail (turn-taking actions, audio effects, costs) no message holds.
  const extra: Json = compact({ ...unmapped(sim, ['id', 'task_id', 'messages', 'start_time', 'end_time']), run: runInfo });
  return compact({
    source_format: 'tau2-bench',
    task_id: task,
    rollout_id: idOf(sim.id) ?? `${locator(ctx)}/${where}`,
    policy_version: str(agent?.llm),
    // The tau2 commit the run used: its environments (tools, database, policy) are that code.
    environment_version: str(runInfo?.git_commit),
    sampling: samplingFrom(rec(agent?.llm_args)),
    transcript: messages,
    segments,
    steps: steps.length > 0 ? steps : undefined,
    termination,
    reward: rewardFor(termination, reward, extra),
    started_at: str(sim.start_time),
    ended_at: str(sim.end_time),
    extra,
  });
}

export const convertTau2Results: Convert = (file, ctx) => {
  const sims = list(file.simulations);
  if (!sims) throw new ConvertError('simulations: expected an array of simulation runs');
  const runInfo = rec(file.info);
  return sims.map((s, i) => {
    const sim = rec(s);
    if (!sim) throw new ConvertError(`simulations[${i}]: expected a simulation object`);
    return tau2Simulation(sim, runInfo, ctx, `simulations[${i}]`);
  });
};

/** tau-bench EnvRunResult (detection): `task_id`, `reward`, `traj` and `trial`. */
export function isTauBenchResult(v: Json): boolean {
  return 'task_id' in v && 'traj' in v && 'reward' in v && 'trial' in v;
}

export function isTau2Results(v: Json): boolean {
  return Array.isArray(v.simulations) && ('tasks' in v || 'info' in v);
}
