import {
  compact,
  idOf,
  int,
  isoFromUnixSeconds,
  isRecord,
  type Json,
  list,
  locator,
  num,
  policySpan,
  rec,
  rewardFor,
  str,
  unmapped,
} from './read';
import { coveredNodes, nodeSegments, readNodes } from './traceGraph';
import { callsById, toolStep } from './transcript';
import { type Convert, type ConvertContext, ConvertError, type Termination } from './types';

/*
 * verifiers v1 episodes as prime-rl and `eval` write them to `traces.jsonl`: one Episode per line
 * (verifiers/v1/episode.py), each holding Traces (verifiers/v1/trace.py) whose message graph
 * (`nodes`, verifiers/v1/graph.py MessageNode) carries each message's token span, sampled mask and
 * sampling logprobs. A line holding a bare Trace is read as an episode of one.
 */

/** Trace.stop_condition values set by the framework (session limits, agent, interception server). */
const STOP_CONDITIONS: Record<string, Termination> = {
  agent_completed: 'finished',
  user_closed: 'finished',
  max_turns: 'budget_exhausted',
  max_input_tokens: 'budget_exhausted',
  max_output_tokens: 'budget_exhausted',
  max_total_tokens: 'budget_exhausted',
  context_length: 'budget_exhausted',
};

/** Error.type is the exception's class name (verifiers/v1/errors.py). */
const ERRORS: Record<string, Termination> = {
  ProviderError: 'infra_failure',
  HarnessError: 'infra_failure',
  ToolsetError: 'infra_failure',
  EnvError: 'infra_failure',
  SandboxError: 'infra_failure',
  TaskError: 'infra_failure',
  InterceptionError: 'infra_failure',
  TunnelError: 'infra_failure',
  OverlongPromptError: 'budget_exhausted',
};

function lastErrorType(errors: unknown): string | undefined {
  const all = list(errors) ?? [];
  return str(rec(all[all.length - 1])?.type);
}

/** A failed trace (stop condition `error`, or `ok: false` with errors) ends as its last error; else its stop condition. */
export function traceTermination(trace: Json): string {
  const stop = str(trace.stop_condition);
  const errorType = lastErrorType(trace.errors);
  const failed = stop === 'error' || (trace.ok === false && (list(trace.errors)?.length ?? 0) > 0);
  if (failed) return (errorType !== undefined ? ERRORS[errorType] : undefined) ?? stop ?? errorType ?? 'error';
  if (stop !== undefined) return STOP_CONDITIONS[stop] ?? stop;
  return 'unknown';
}

/** Trace.reward: the weighted sum of the rewards that were scored; null when none was (`None` = scoring did not run). */
export function traceReward(rewards: unknown): number | null {
  let total = 0;
  let scored = false;
  for (const r of Object.values(rec(rewards) ?? {})) {
    const score = num(rec(r)?.score);
    if (score === undefined) continue;
    total += score * (num(rec(r)?.weight) ?? 1);
    scored = true;
  }
  return scored ? total : null;
}

/** The live policy span of a training episode (PolicySpan), else the model the agent was configured with. */
function policyVersion(policy: Json | undefined, model: string | undefined): string | undefined {
  const start = int(policy?.start);
  const end = int(policy?.end);
  if (start === undefined) return model;
  return policySpan(end === undefined ? [start] : [start, end]);
}
function taskId(task: Json | undefined, ctx: ConvertContext): string {
  const data = rec(task?.data);
  return idOf(task?.key) ?? idOf(task?.hash) ?? idOf(data?.idx) ?? locator(ctx);
}

function traceRecord(trace: Json, episode: Json, ctx: ConvertContext, index: number): Json {
  const nodes = readNodes(trace.nodes, `traces[${index}].nodes`);
  const linear = nodes.every((n, i) => n.parent === (i === 0 ? null : i - 1));
  const segments = nodes.flatMap((n, k) => (n.sampled && n.message.role === 'assistant' ? nodeSegments(nodes, k, linear) : []));
  const transcript = nodes.map((n) => n.message);
  const calls = callsById(transcript);
  const steps = nodes.flatMap((n) => (n.message.role === 'tool' ? [toolStep(n.message, calls)].filter((s) => s !== null) : []));

  // Token spans already inside some segment are not repeated under extra.nodes; everything else is kept.
  const covered = coveredNodes(nodes, segments);
  const nodeExtras = nodes.map((n, i) =>
    unmapped(n.raw, covered.has(i) ? ['message', 'token_ids', 'mask', 'logprobs', 'parent'] : ['message', 'parent']),
  );
  attachCalls(trace, segments);

  const task = rec(trace.task) ?? rec(episode.task);
  const agent = rec(trace.agent);
  const config = rec(agent?.config);
  const sampling = rec(config?.sampling);
  const policy = rec(rec(rec(episode.run)?.work)?.policy);
  const timing = rec(trace.timing);
  const termination = traceTermination(trace);
  const extra: Json = compact({
    ...unmapped(trace, ['id', 'task', 'nodes', 'calls']),
    task: task ? unmapped(task, ['key']) : undefined,
    nodes: nodeExtras.some((e) => e !== undefined) ? nodes.map((n, i) => ({ parent: n.parent, ...nodeExtras[i] })) : undefined,
    calls_without_node: unattachedCalls(trace, segments),
    episode: unmapped(episode, ['traces', 'task', 'group']),
  });
  const samplingOut = compact({
    temperature: num(sampling?.temperature),
    top_p: num(sampling?.top_p),
    max_new_tokens: int(sampling?.max_tokens),
  });
  return compact({
    source_format: 'verifiers-traces',
    task_id: taskId(task, ctx),
    rollout_id: idOf(trace.id) ?? `${locator(ctx)}/traces[${index}]`,
    group_id: idOf(rec(episode.group)?.id),
    policy_version: policyVersion(policy, str(config?.model)),
    sampling: Object.keys(samplingOut).length > 0 ? samplingOut : undefined,
    task: typeof rec(task?.data)?.prompt === 'string' ? { prompt: rec(task?.data)?.prompt } : undefined,
    started_at: isoFromUnixSeconds(timing?.start),
    ended_at: isoFromUnixSeconds(Math.max(0, ...Object.values(timing ?? {}).map((span) => num(rec(span)?.end) ?? 0))),
    transcript,
    segments,
    steps: steps.length > 0 ? steps : undefined,
    termination,
    reward: rewardFor(termination, traceReward(trace.rewards), extra),
    extra,
  });
}

/** Each model call (verifiers/v1/trace.py ModelCall) goes under the extra of the segment its `node` produced. */
function attachCalls(trace: Json, segments: Json[]): void {
  for (const call of list(trace.calls) ?? []) {
    const node = int(rec(call)?.node);
    const segment = segments.findLast((s) => int(rec(s.extra)?.node) === node);
    const extra = rec(segment?.extra);
    if (extra && isRecord(call)) extra.call = unmapped(call, ['node']);
  }
}

function unattachedCalls(trace: Json, segments: readonly Json[]): unknown[] | undefined {
  const nodes = new Set(segments.map((s) => int(rec(s.extra)?.node)));
  const rest = (list(trace.calls) ?? []).filter((c) => !nodes.has(int(rec(c)?.node)));
  return rest.length > 0 ? rest : undefined;
}

/** An episode that produced no trace (a failed dispatch) stays visible as a rollout with no segments. */
function tracelessRecord(episode: Json, ctx: ConvertContext): Json {
  const errorType = lastErrorType(episode.errors);
  const policy = rec(rec(rec(episode.run)?.work)?.policy);
  const termination = (errorType !== undefined ? ERRORS[errorType] : undefined) ?? errorType ?? 'unknown';
  return compact({
    source_format: 'verifiers-traces',
    task_id: taskId(rec(episode.task), ctx),
    rollout_id: idOf(episode.id) ?? locator(ctx),
    group_id: idOf(rec(episode.group)?.id),
    policy_version: policyVersion(policy, undefined),
    segments: [],
    termination,
    reward: null,
    extra: unmapped(episode, ['id', 'group', 'traces']),
  });
}

export const convertVerifiersTraces: Convert = (value, ctx) => {
  const isEpisode = Array.isArray(value.traces);
  const episode: Json = isEpisode ? value : { task: value.task };
  const traces = isEpisode ? (list(value.traces) ?? []) : [value];
  if (traces.length === 0) return [tracelessRecord(episode, ctx)];
  return traces.map((t, i) => {
    if (!isRecord(t)) throw new ConvertError(`traces[${i}]: expected a trace object`);
    return traceRecord(t, episode, ctx, i);
  });
};
