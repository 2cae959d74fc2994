import { compact, idOf, int, type Json, list, locator, num, rec, rewardFor, str, unmapped } from './read';
import { samplingFrom } from './sampling';
import { contentText, type Message, normalizeToolCall, parsedArguments, type ToolCall } from './transcript';
import { type Convert, type ConvertContext, ConvertError } from './types';

/*
 * OpenHands (All-Hands-AI/OpenHands, OpenHands/software-agent-sdk). Three shapes:
 * - an evaluation `output.jsonl` row (evaluation/utils/shared.py `EvalOutput`): `instance_id`,
 *   `instruction`, `history` (the event stream), `test_result`, `metadata` (EvalMetadata, llm_config),
 *   `metrics`, `error`, `instance`;
 * - an event list: a JSON array of events (v0: `tests/runtime/trajs/*.json`, a saved trajectory), or
 *   events one per line (an SDK conversation saved as JSON Lines, gathered by lineParser.ts): each v0
 *   event an action (`action`, `args`, `tool_call_metadata`) or an observation (`observation`, `cause`,
 *   `content`);
 * - V1 SDK events (in `history`, or a list): `ActionEvent` (`action`, `tool_name`, `tool_call_id`,
 *   `tool_call`, `llm_response_id`, `thought`), `ObservationEvent` (`observation`, `tool_call_id`),
 *   `MessageEvent`, `SystemPromptEvent`, and the conversation's own `ConversationStateUpdateEvent`
 *   (`key`, `value`) and `ConversationErrorEvent` (`code`, `detail`); newer events name their parent
 *   (`parent_id`: the conversation is a tree, and the active branch is read).
 * One LLM response (v0 `model_response.id`, V1 `llm_response_id`) is one segment, whatever number of
 * actions it made; each observation answering a call id is a step.
 */

interface Turns {
  transcript: Message[];
  segments: Json[];
  steps: Json[];
  finished: boolean;
  /** What an SDK conversation's own events say of it (none of this is in an evaluation row's v0 history). */
  sdk: SdkFacts;
}

interface SdkFacts {
  /** The last `execution_status` a `ConversationStateUpdateEvent` set. */
  status?: string;
  /** The last `ConversationErrorEvent`: why the run loop stopped on an error. */
  error?: { code?: string; detail?: string };
  /** The agent's LLM, from a `full_state` snapshot's `agent.llm`. */
  llm?: Json;
  /** The model the agent's usage stats name (`stats.usage_to_metrics.default.model_name`). */
  model?: string;
  /** Events of the conversation tree left out: not on its active branch (`activeBranch`). */
  offBranch?: number;
  /** The first user message: the task the conversation was given. */
  task?: string;
}

function textOf(v: unknown): string {
  if (typeof v === 'string') return v;
  return contentText(v).text ?? '';
}

/** A V1 observation's text: `output` (bash), `content` (file tools, as text parts), or `message` (finish). */
function v1ObservationText(obs: Json): string {
  if (typeof obs.output === 'string') return obs.output;
  if (obs.content !== undefined) return textOf(obs.content);
  if (typeof obs.message === 'string') return obs.message;
  return '';
}

class TurnBuilder {
  readonly turns: Turns = { transcript: [], segments: [], steps: [], finished: false, sdk: {} };
  private readonly calls = new Map<string, ToolCall>();
  /** Generations by LLM response id: a response's later calls join it even after an observation came between. */
  private readonly byResponse = new Map<string, { message: Message; segment: Json }>();

  context(role: string, content: string): void {
    this.turns.transcript.push({ role, content });
  }

  /** A generation: `key` is its LLM response id; every call of one response joins one segment. */
  generation(key: string | undefined, text: string | null, call: ToolCall | undefined, reasoning?: string): void {
    const known = key === undefined ? undefined : this.byResponse.get(key);
    if (known) {
      if (call) this.addCall(known.message, known.segment, call);
      return;
    }
    const message: Message = { role: 'assistant', content: text };
    if (reasoning) message.reasoning = reasoning;
    const segment: Json = {
      input_ids: [],
      generated_ids: [],
      old_logprobs: [],
      tool_call_id: null,
      transcript_index: this.turns.transcript.length,
    };
    if (text !== null) segment.text = text;
    this.turns.transcript.push(message);
    this.turns.segments.push(segment);
    if (key !== undefined) this.byResponse.set(key, { message, segment });
    if (call) this.addCall(message, segment, call);
  }

  private addCall(message: Message, segment: Json, call: ToolCall): void {
    message.tool_calls = [...(message.tool_calls ?? []), call];
    if (call.id === undefined) return;
    this.calls.set(call.id, call);
    if (segment.tool_call_id === null) segment.tool_call_id = call.id;
    else segment.tool_call_ids = [...((segment.tool_call_ids as string[] | undefined) ?? [segment.tool_call_id as string]), call.id];
  }

  observation(
    callId: string | undefined,
    tool: string | undefined,
    text: string,
    exitCode: number | undefined,
    extra?: Json,
    status?: string,
  ): void {
    this.turns.transcript.push(compact({ role: 'tool', content: text, tool_call_id: callId, name: tool }));
    if (callId === undefined) return;
    const call = this.calls.get(callId);
    if (!call) return;
    const step: Json = compact({
      tool_call_id: callId,
      tool: call.name ?? tool ?? '',
      args: parsedArguments(call),
      observation: compact({ text, status, exit_code: exitCode }),
      extra,
    });
    this.turns.steps.push(step);
  }
}

/** The tool call of a v0 action: from the LLM response the action came from, else the action's own args. */
function v0Call(event: Json): { key?: string; call: ToolCall; text: string | null } | undefined {
  const meta = rec(event.tool_call_metadata);
  if (!meta) return undefined;
  const id = str(meta.tool_call_id);
  const response = rec(meta.model_response);
  const message = rec(rec(list(response?.choices)?.[0])?.message);
  const raw = list(message?.tool_calls)?.find((c) => rec(c)?.id === id);
  const call: ToolCall = raw ? normalizeToolCall(raw, 'tool_call_metadata.model_response') : compact({ id, name: str(meta.function_name) });
  if (!raw && event.args !== undefined) call.arguments = JSON.stringify(event.args);
  return { key: str(response?.id) ?? id, call, text: message && typeof message.content === 'string' ? message.content : null };
}

function addV0Event(b: TurnBuilder, event: Json): void {
  const source = str(event.source);
  if (typeof event.action === 'string') {
    const action = event.action;
    const args = rec(event.args);
    const tool = v0Call(event);
    if (action === 'finish' && source === 'agent') b.turns.finished = true;
    if (tool) b.generation(tool.key, tool.text ?? (str(args?.thought) || null), tool.call);
    else if (source === 'agent' && action === 'message') b.generation(undefined, textOf(args?.content ?? event.message), undefined);
    else if (action === 'system') b.context('system', textOf(args?.content ?? event.message));
    else if (action === 'message') b.context('user', textOf(args?.content ?? event.message));
    // recall and other harness actions are not the model's: their observations answer no call.
    return;
  }
  if (typeof event.observation === 'string') {
    const meta = rec(event.tool_call_metadata);
    const extras = rec(event.extras);
    const exit = int(rec(extras?.metadata)?.exit_code) ?? int(extras?.exit_code);
    const text = textOf(event.content ?? event.message);
    if (meta) b.observation(str(meta.tool_call_id), str(meta.function_name), text, exit);
    else b.context('environment', text);
  }
}

function addV1Event(b: TurnBuilder, event: Json): void {
  const kind = str(event.kind);
  if (kind === 'ActionEvent') {
    const raw = rec(event.tool_call);
    const call: ToolCall = raw ? normalizeToolCall(raw, 'tool_call') : compact({ id: str(event.tool_call_id), name: str(event.tool_name) });
    // `thought` is a list of TextContent parts ({type: "text", text}), joined as message content is.
    const thought = textOf(list(event.thought) ?? []);
    const reasoning = str(event.reasoning_content) ?? undefined;
    b.generation(str(event.llm_response_id) ?? call.id, thought === '' ? null : thought, call, reasoning);
    if (rec(event.action)?.kind === 'FinishAction') b.turns.finished = true;
  } else if (kind === 'ObservationEvent' || kind === 'UserRejectObservation' || kind === 'AgentErrorEvent') {
    const obs = rec(event.observation) ?? {};
    const text = kind === 'ObservationEvent' ? v1ObservationText(obs) : (str(event.error) ?? str(event.rejection_reason) ?? '');
    b.observation(
      str(event.tool_call_id),
      str(event.tool_name),
      text,
      v1ExitCode(obs),
      kind === 'ObservationEvent' ? undefined : { kind },
      obs.timeout === true ? 'timeout' : obs.is_error === true || obs.error === true ? 'error' : undefined,
    );
  } else if (kind === 'MessageEvent') {
    const message = rec(event.llm_message);
    const role = str(message?.role) ?? (event.source === 'agent' ? 'assistant' : 'user');
    // `extended_content` is sent to the model after the message's own content (MessageEvent.to_llm_message).
    const content =
      Array.isArray(event.extended_content) && Array.isArray(message?.content)
        ? [...message.content, ...event.extended_content]
        : message?.content;
    if (role === 'assistant') b.generation(undefined, textOf(content), undefined);
    else b.context(role, textOf(content));
    if (role === 'user' && event.source === 'user') b.turns.sdk.task ??= textOf(message?.content);
  } else if (kind === 'SystemPromptEvent') {
    const prompt = textOf(rec(event.system_prompt)?.text ?? event.system_prompt);
    // Newer SDKs send per-conversation context as a second block of the system message.
    const dynamic = str(rec(event.dynamic_context)?.text);
    b.context('system', dynamic ? `${prompt}\n\n${dynamic}` : prompt);
  } else if (kind === 'ConversationStateUpdateEvent') {
    const value = rec(event.value);
    if (event.key === 'execution_status' && typeof event.value === 'string') b.turns.sdk.status = event.value;
    else if (event.key === 'full_state') {
      if (typeof value?.execution_status === 'string') b.turns.sdk.status = value.execution_status;
      const llm = rec(rec(value?.agent)?.llm);
      if (llm) b.turns.sdk.llm = llm;
    } else if (event.key === 'stats') {
      // The agent's LLM is registered under usage id `default` (LLM.usage_id) unless renamed.
      const model = str(rec(rec(value?.usage_to_metrics)?.default)?.model_name);
      if (model) b.turns.sdk.model = model;
    }
  } else if (kind === 'ConversationErrorEvent') {
    b.turns.sdk.error = compact({ code: str(event.code), detail: str(event.detail) });
  }
}

/**
 * A V1 observation's exit code: the tool's own `exit_code` (TerminalObservation; null when the command
 * never ran), else its `metadata.exit_code` (ExecuteBashObservation wrote only that one), where -1 is
 * the default of a command that has not exited, not an exit code.
 */
function v1ExitCode(obs: Json): number | undefined {
  const own = int(obs.exit_code);
  if (own !== undefined) return own;
  const meta = int(rec(obs.metadata)?.exit_code);
  return meta === -1 ? undefined : meta;
}

const ROOT_PARENT_ID = '__root__';
/** Events that are not nodes of the conversation tree: never its leaf (ConversationState._resolve_active_leaf). */
const NOT_NODES: ReadonlySet<unknown> = new Set(['ConversationStateUpdateEvent', 'ConversationErrorEvent']);

/**
 * The positions of the events to read, in order, and how many were left out. Newer SDK events name their
 * parent (`parent_id`): a conversation navigated back and continued is a tree, and what the agent did is
 * its active branch, from the last event appended (the SDK's leaf when none was set) back to the root,
 * an event without `parent_id` following the one before it (EventLog._effective_parent_id). State updates
 * and conversation errors are not tree nodes and are read where they stand. Without any `parent_id`, or
 * when a parent is not in the list (a slice of a conversation), every event is read, in order.
 */
function activeBranch(history: unknown[]): { order: number[]; offBranch: number } {
  const all = { order: history.map((_, i) => i), offBranch: 0 };
  if (!history.some((e) => typeof rec(e)?.parent_id === 'string')) return all;
  const at = new Map<string, number>();
  history.forEach((e, i) => {
    const id = str(rec(e)?.id);
    if (id !== undefined && !at.has(id)) at.set(id, i);
  });
  const isNode = (i: number) => {
    const e = rec(history[i]);
    return e !== undefined && !NOT_NODES.has(e.kind);
  };
  let leaf = history.length - 1;
  while (leaf >= 0 && !isNode(leaf)) leaf--;
  const onBranch = new Set<number>();
  for (let i = leaf; i >= 0; ) {
    if (onBranch.has(i)) return all; // a cycle: no tree to read
    onBranch.add(i);
    const parent = rec(history[i])?.parent_id;
    if (parent === ROOT_PARENT_ID) break;
    if (typeof parent !== 'string') i--;
    else {
      const p = at.get(parent);
      if (p === undefined) return all;
      i = p;
    }
  }
  const order = all.order.filter((i) => onBranch.has(i) || !isNode(i));
  return { order, offBranch: history.length - order.length };
}

function openHandsTurns(history: unknown[], path: string): Turns {
  const b = new TurnBuilder();
  const { order, offBranch } = activeBranch(history);
  if (offBranch > 0) b.turns.sdk.offBranch = offBranch;
  order.forEach((i) => {
    const raw = history[i];
    // Old outputs wrote `history` as [action, observation] pairs (EvalOutput: "for compatibility with the old format").
    for (const [j, item] of (Array.isArray(raw) ? raw : [raw]).entries()) {
      const event = rec(item);
      if (!event) throw new ConvertError(`${path}[${i}]${Array.isArray(raw) ? `[${j}]` : ''}: expected an event object`);
      if (typeof event.kind === 'string') addV1Event(b, event);
      else addV0Event(b, event);
    }
  });
  return b.turns;
}

/**
 * The termination table of docs/formats.md: OpenHands stops a run at `max_iterations` with "RuntimeError:
 * Agent reached maximum iteration" and at `max_budget_per_task` with "Agent reached maximum budget for
 * conversation" (openhands/controller/state/control_flags.py, IterationControlFlag / BudgetControlFlag);
 * a run that ended on the agent's `finish` action finished. Any other error is kept as its class name.
 */
function openHandsTermination(error: unknown, turns: Turns): string {
  const message = str(error);
  if (message) {
    if (/maximum iteration|max iteration/i.test(message)) return 'budget_exhausted';
    if (/maximum budget/i.test(message)) return 'budget_exhausted';
    return /^([A-Za-z_][\w.]*)(:|$)/.exec(message)?.[1] ?? message.slice(0, 80);
  }
  return sdkTermination(turns.sdk) ?? (turns.finished ? 'finished' : 'unknown');
}

/**
 * What an SDK conversation's own events say of how it ended: a `ConversationErrorEvent` stops the run loop
 * (LocalConversation.run: `MaxIterationsReached` at `max_iteration_per_run`, `MaxBudgetReached` at
 * `max_budget_per_run`, otherwise the exception's class name), and the last `execution_status` says
 * whether the agent finished (`finished`: FinishAction, or a reply without a tool call) or got `stuck`.
 * Undefined when they say nothing (no such event, or a status of a run not over: `running`, `idle`, …).
 */
function sdkTermination(sdk: SdkFacts): string | undefined {
  const code = sdk.error?.code;
  if (code === 'MaxIterationsReached' || code === 'MaxBudgetReached') return 'budget_exhausted';
  if (code) return code;
  if (sdk.status === 'finished') return 'finished';
  if (sdk.status === 'stuck' || sdk.status === 'error') return sdk.status;
  return undefined;
}

/**
 * The reward an evaluation wrote into `test_result`: SWE-bench's `report.resolved`, or OpenAgentSafety-like
 * `final_score {result, total}` (result / total, only when total > 0). Anything else: null.
 */
function rewardOf(testResult: Json | undefined): number | null {
  const resolved = rec(testResult?.report)?.resolved;
  if (typeof resolved === 'boolean') return resolved ? 1 : 0;
  const score = rec(testResult?.final_score);
  const result = num(score?.result);
  const total = num(score?.total);
  if (result !== undefined && total !== undefined && total > 0) return result / total;
  return null;
}

function rollout(history: unknown[], path: string, ctx: ConvertContext, row: Json | null): Json {
  const turns = openHandsTurns(history, path);
  const metadata = rec(row?.metadata);
  const llm = rec(metadata?.llm_config) ?? rec(metadata?.llm) ?? turns.sdk.llm;
  const testResult = rec(row?.test_result);
  const termination = openHandsTermination(row?.error, turns);
  const extra: Json = compact({
    ...(row ? unmapped(row, ['instance_id', 'history', 'instruction', 'error']) : {}),
    error: row?.error ?? turns.sdk.error,
    events_off_branch: turns.sdk.offBranch,
  });
  const patch = str(testResult?.git_patch);
  const instruction = str(row?.instruction) ?? turns.sdk.task;
  return compact({
    source_format: row === null ? 'openhands-events' : 'openhands-eval',
    task_id: idOf(row?.instance_id) ?? locator(ctx),
    // OpenHands writes no rollout id: the row's (or file's) location stands in.
    rollout_id: locator(ctx),
    policy_version: str(llm?.model) ?? turns.sdk.model,
    sampling: samplingFrom(llm ? { ...llm, max_tokens: llm.max_output_tokens } : undefined),
    task: instruction ? { prompt: instruction } : undefined,
    transcript: turns.transcript,
    segments: turns.segments,
    steps: turns.steps.length > 0 ? turns.steps : undefined,
    termination,
    reward: rewardFor(termination, rewardOf(testResult), extra),
    grading: patch ? { artifact: patch } : undefined,
    extra: Object.keys(extra).length > 0 ? extra : undefined,
  });
}

/** An evaluation `output.jsonl` row. */
export const convertOpenHandsEval: Convert = (row, ctx) => {
  const history = list(row.history);
  if (!history) throw new ConvertError('history: expected an array of events');
  return [rollout(history, 'history', ctx, row)];
};

/**
 * An event list: the whole list is one rollout (wholeFile.ts passes a JSON array as `{events}`; lineParser.ts
 * gathers an event-per-line file into `{events}` by `eventsOfLine`).
 */
export const convertOpenHandsEvents: Convert = (value, ctx) => {
  const events = list(value.events);
  if (!events) throw new ConvertError('expected a JSON array of OpenHands events, or one event per line');
  return [rollout(events, 'events', ctx, null)];
};

/**
 * What one line of an event-per-line file adds to its conversation (the events of one SDK conversation
 * saved as JSON Lines): the line's event (any `kind`: a newer SDK's events this reader does not know stay
 * in order and are skipped when read); null for a line that is no event, converted (and failing) alone.
 */
export function eventsOfLine(value: Json): Json[] | null {
  return typeof value.kind === 'string' || isOpenHandsEvent(value) ? [value] : null;
}

export function isOpenHandsEval(v: Json): boolean {
  return 'instance_id' in v && Array.isArray(v.history) && ('test_result' in v || 'instruction' in v);
}

/** One OpenHands event: v0 (`action` or `observation` with `source`) or V1 (`kind` …Event). */
export function isOpenHandsEvent(v: Json): boolean {
  if (typeof v.kind === 'string' && /Event$/.test(v.kind) && 'source' in v) return true;
  return typeof v.source === 'string' && 'timestamp' in v && (typeof v.action === 'string' || typeof v.observation === 'string');
}
