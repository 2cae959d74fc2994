import { compact, idOf, intArray, isRecord, type Json, list, locator, num, numArray, rec, rewardFor, str, unmapped } from './read';
import { samplingFrom } from './sampling';
import { tau2Termination } from './tauBench';
import { contentText, type Message, parsedArguments, type ToolCall } from './transcript';
import { type Convert, ConvertError, type Termination } from './types';

/*
 * NeMo Gym rollouts (NVIDIA-NeMo/Gym): one JSON line per rollout, `{responses_create_params, response,
 * reward, _ng_task_index, _ng_rollout_index, ...verify fields}`. `response` is a Responses API object
 * whose `output` is every item the agent loop produced (responses_api_agents/simple_agent/app.py:
 * `model_response.output = new_outputs`): `reasoning`, assistant `message`, `function_call` and the
 * `function_call_output` the agent fed back. A vLLM model server asked for token ids attaches
 * `prompt_token_ids`, `generation_token_ids` and `generation_log_probs` to the last item of each model
 * call (nemo_gym/openai_utils.py `TokenIDLogProbMixin`, responses_api_models/vllm_model/app.py).
 */

const TOKEN_FIELDS = ['prompt_token_ids', 'generation_token_ids', 'generation_log_probs', 'routed_experts'];

/** One model call's items: what the policy generated between two inputs from outside. */
interface Generation {
  items: Json[];
  tokens?: { input: number[]; generated: number[]; logprobs: number[] };
}

function itemText(item: Json): string {
  if (typeof item.content === 'string') return item.content;
  return (list(item.content) ?? []).flatMap((p) => (isRecord(p) && typeof p.text === 'string' ? [p.text] : [])).join('\n');
}

/** The input items (the prompt, and in multi-turn agents the earlier turns) as chat messages. */
function inputMessages(input: unknown): Message[] {
  if (typeof input === 'string') return [{ role: 'user', content: input }];
  const out: Message[] = [];
  let callsOpen = false; // consecutive input function calls are one earlier assistant turn
  for (const raw of list(input) ?? []) {
    const item = rec(raw);
    if (!item) continue;
    if (item.type === 'function_call') {
      const call: ToolCall = compact({ id: str(item.call_id), name: str(item.name), arguments: str(item.arguments) });
      const last = out[out.length - 1];
      if (callsOpen && last) last.tool_calls = [...(last.tool_calls ?? []), call];
      else out.push({ role: 'assistant', content: null, tool_calls: [call] });
      callsOpen = true;
      continue;
    }
    callsOpen = false;
    if (item.type === 'function_call_output') {
      out.push(
        compact({
          role: 'tool',
          content: typeof item.output === 'string' ? item.output : JSON.stringify(item.output),
          tool_call_id: str(item.call_id),
        }),
      );
    } else if (typeof item.role === 'string') {
      const { text, parts } = contentText(item.content);
      out.push(compact({ role: item.role, content: typeof item.content === 'string' ? item.content : text, content_parts: parts }));
    }
  }
  return out;
}

function tokensOf(item: Json, path: string): Generation['tokens'] {
  if (!TOKEN_FIELDS.slice(0, 3).some((k) => k in item)) return undefined;
  const input = intArray(item.prompt_token_ids);
  const generated = intArray(item.generation_token_ids);
  const logprobs = numArray(item.generation_log_probs);
  if (!input || !generated || !logprobs)
    throw new ConvertError(`${path}: prompt_token_ids, generation_token_ids and generation_log_probs must be number arrays`);
  return { input, generated, logprobs };
}

/**
 * The output items grouped into generations (model calls). Between two inputs from outside (a tool
 * output, a user message) the agent loop makes one model call; an item carrying token ids closes a call
 * (NeMo Gym puts them on the call's last item unless it recorded another, token_id_capture/builder.py),
 * and items without token ids after it, before the next outside input, still belong to it. Without token
 * ids, a call is every generated item up to the next outside input.
 */
function generations(output: unknown[]): Array<Generation | Json> {
  const order: Array<Generation | Json> = [];
  let open: Generation | null = null;
  let closed: Generation | null = null;
  output.forEach((raw, i) => {
    const item = rec(raw);
    if (!item) throw new ConvertError(`response.output[${i}]: expected an output item object`);
    const generated = item.type === 'reasoning' || item.type === 'function_call' || (item.type === 'message' && item.role === 'assistant');
    if (!generated) {
      open = null;
      closed = null;
      order.push(item);
      return;
    }
    const tokens = tokensOf(item, `response.output[${i}]`);
    if (!tokens && !open && closed) {
      closed.items.push(item);
      return;
    }
    if (!open) {
      open = { items: [] };
      order.push(open);
    }
    open.items.push(item);
    if (tokens) {
      open.tokens = tokens;
      closed = open;
      open = null;
    }
  });
  return order;
}

function generationMessage(gen: Generation): Message {
  const texts: string[] = [];
  const thoughts: string[] = [];
  const calls: ToolCall[] = [];
  for (const item of gen.items) {
    if (item.type === 'reasoning') {
      for (const s of list(item.summary) ?? []) if (isRecord(s) && typeof s.text === 'string') thoughts.push(s.text);
      const content = itemText(item);
      if (content) thoughts.push(content);
    } else if (item.type === 'function_call') {
      calls.push(compact({ id: str(item.call_id), name: str(item.name), arguments: str(item.arguments) }));
    } else texts.push(itemText(item));
  }
  const message: Message = { role: 'assistant', content: texts.length > 0 ? texts.join('\n') : null };
  if (thoughts.length > 0) message.reasoning = thoughts.join('\n');
  if (calls.length > 0) message.tool_calls = calls;
  // Every item as written, token arrays aside (they are the segment's), so nothing else is lost.
  message.output_items = gen.items.map((item) => unmapped(item, TOKEN_FIELDS) ?? {});
  return message;
}

/*
 * Termination: what the rollout itself records about why its agent loop stopped. Every NeMo Gym agent has
 * its own stopping rules and writes its own evidence; docs/formats.md (NeMo Gym) cites each agent's file and
 * field. A rollout with no evidence is `unknown`, never a guess. `response.status` `completed` is not a reason:
 * simple_agent returns its last model call's response, mini_swe_agent_2 and harbor_agent a default object, all
 * `completed` whatever stopped the loop (a budget, a submit, neither); it is read last (COMPLETED_STATUS).
 */

/** One kind of evidence read: the termination it gives, or undefined when the rollout does not carry it. */
type Evidence = string | undefined;

/** finance_agent writes why its loop ended into `response.metadata.stop_reason` (finance_agent/app.py `StopReason`). */
const FINANCE_STOPS: Record<string, Termination> = {
  done_tool: 'finished',
  max_turns: 'budget_exhausted',
  max_time: 'budget_exhausted',
  max_output_tokens: 'budget_exhausted',
  error: 'infra_failure',
};

function financeStop(response: Json | undefined): Evidence {
  const reason = str(rec(response?.metadata)?.stop_reason);
  return reason === undefined ? undefined : FINANCE_STOPS[reason];
}

/**
 * gymnasium_agent returns the environment's Gymnasium flags with the rollout, both always (gymnasium_agent/app.py
 * `GymnasiumRunResponse`); a loop that ran out of `max_steps` sets `truncated`.
 */
function gymnasiumStop(row: Json): Evidence {
  if (typeof row.terminated !== 'boolean' || typeof row.truncated !== 'boolean') return undefined;
  if (row.terminated) return 'finished';
  return row.truncated ? 'budget_exhausted' : undefined;
}

/** osworld_agent's `termination_reason` (osworld_agent/client.py); NeMo-RL masks the ones that are errors. */
function osworldReason(reason: string): Evidence {
  if (reason.startsWith('agent_') || reason === 'environment_done' || reason === 'setup_score_zero') return 'finished';
  if (reason === 'max_steps' || reason === 'timeout') return 'budget_exhausted';
  if (reason.endsWith('_error')) return 'infra_failure';
  return undefined;
}

/** Older osworld rollouts have no reason: `osworld_finished` is "the loop ended on DONE/FAIL or env.done". */
function osworldStop(row: Json): Evidence {
  const meta = rec(row.verifier_metadata);
  if (!meta || !('osworld_finished' in meta)) return undefined;
  const reason = str(meta.osworld_termination_reason);
  if (reason !== undefined) return osworldReason(reason);
  const error = str(meta.osworld_error);
  if (error !== undefined) return error.startsWith('task_timeout') ? 'budget_exhausted' : 'infra_failure';
  return meta.osworld_finished === true ? 'finished' : 'budget_exhausted';
}

const HARBOR_FLAGS = ['agent_timeout_error', 'context_length_exceeded_error', 'memory_limit_exceeded_error'];
const TASK_COMPLETE = /"task_complete"\s*:\s*true\b/;

/** Texts of the assistant messages the policy generated, in order. */
function assistantTexts(order: ReadonlyArray<Generation | Json>): string[] {
  return order.filter(isGeneration).flatMap((g) => g.items.filter((i) => i.type === 'message').map(itemText));
}

/**
 * harbor_agent (terminus-2) writes its three error flags on every rollout (harbor_agent/app.py
 * `HarborVerifyResponse`). Terminus-2 ends when two answers in a row say `"task_complete": true` (the second
 * after its "Are you sure…" prompt); its turn budget is `max_turns`, recorded under `metadata.config.agent.kwargs`
 * with the episodes it ran under `metadata.agent_result.metadata.n_episodes`.
 */
function harborStop(row: Json, order: ReadonlyArray<Generation | Json>): Evidence {
  if (!HARBOR_FLAGS.every((k) => k in row)) return undefined;
  const texts = assistantTexts(order);
  if (texts.length >= 2 && texts.slice(-2).every((t) => TASK_COMPLETE.test(t))) return 'finished';
  if (HARBOR_FLAGS.some((k) => row[k] === 1 || row[k] === true)) return 'budget_exhausted';
  const meta = rec(row.metadata);
  const episodes = num(rec(rec(meta?.agent_result)?.metadata)?.n_episodes);
  const maxTurns = num(rec(rec(rec(meta?.config)?.agent)?.kwargs)?.max_turns);
  return episodes !== undefined && maxTurns !== undefined && episodes >= maxTurns ? 'budget_exhausted' : undefined;
}

/** opencode_sandboxed_agent: `opencode_finished` is "OpenCode run finished" in the run's stdout (its app.py). */
function opencodeStop(row: Json): Evidence {
  return row.opencode_finished === true ? 'finished' : undefined;
}

/** The stop an agent recorded in a field of its own, read before the transcript's shape. */
function recordedStop(row: Json, response: Json | undefined, order: ReadonlyArray<Generation | Json>): Evidence {
  return financeStop(response) ?? gymnasiumStop(row) ?? osworldStop(row) ?? harborStop(row, order) ?? opencodeStop(row);
}

/**
 * The last model call cut or failed (the Responses API's own words): simple_agent, finance_agent and others stop
 * on `incomplete_details`. A `max_output_tokens` cut is the generation budget; any other reason says nothing of one.
 */
function modelStop(response: Json | undefined): Evidence {
  const details = response?.incomplete_details;
  if (details !== undefined && details !== null) return rec(details)?.reason === 'max_output_tokens' ? 'budget_exhausted' : 'unknown';
  const status = str(response?.status);
  if (status === 'failed') return 'infra_failure';
  if (status === 'cancelled') return 'cancelled';
  return status === 'incomplete' ? 'unknown' : undefined;
}

/** Tools whose call ends the loop by its agent's rule: stirrup_agent's two finish tools, finance_agent's `done_tools`. */
const FINISHING_TOOLS = new Set(['finish', 'abandon_task_finish', 'submit_final_result']);
/** mini_swe_agent_2 submits when a command's output starts with this line (sandbox_environment.py `_check_finished`). */
const SUBMIT_COMMAND = /^\s*echo\s+['"]?COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT\b/;

/**
 * Whether a call ends its loop. A submit command that took raises `Submitted`, whose exit message the agent
 * does not turn into an output item: a submit is a command left unanswered, one answered did not take.
 */
function isFinishingCall(call: Json, answered: boolean): boolean {
  const name = str(call.name);
  if (name !== undefined && FINISHING_TOOLS.has(name)) return true;
  const command = parsedArguments({ arguments: str(call.arguments) })?.command;
  return !answered && typeof command === 'string' && SUBMIT_COMMAND.test(command);
}

function isGeneration(entry: Generation | Json): entry is Generation {
  return 'items' in entry && Array.isArray(entry.items);
}

/**
 * The shape of the end, where no field says: the last model call and what followed it. A call with an assistant
 * message and no function call is simple_agent's own stop ("no function calls and an output message"); a call
 * ending in a finishing call is its agent's submit; a rollout of one model call is a single-step task
 * (tool_simulation_agent makes one call and grades it; simple_agent with `max_steps: 1`, as circle_click, runs
 * one turn), whose call is the answer. Anything else (a multi-turn rollout ending on a tool output, an
 * observation or a lone reasoning item, no output) records no reason: `unknown`.
 */
function lastTurnStop(order: ReadonlyArray<Generation | Json>): string {
  const at = order.findLastIndex(isGeneration);
  const last = order[at];
  if (!last || !isGeneration(last)) return 'unknown';
  const calls = last.items.filter((i) => i.type === 'function_call');
  const ids = new Set(calls.map((c) => str(c.call_id)));
  const after = order.slice(at + 1) as Json[]; // past the last generation, only outside items
  // Only the outputs of the last call's own function calls may follow it: anything else came from outside the loop.
  if (!after.every((i) => i.type === 'function_call_output' && ids.has(str(i.call_id)))) return 'unknown';
  const answered = new Set(after.map((i) => str(i.call_id)));
  if (calls.length === 0) return last.items.some((i) => i.type === 'message') ? 'finished' : 'unknown';
  if (calls.some((c) => isFinishingCall(c, answered.has(str(c.call_id))))) return 'finished';
  return order.filter(isGeneration).length === 1 ? 'finished' : 'unknown';
}

/**
 * The last rule, when nothing above says why the loop stopped: the rollout's own `response.status` is
 * `completed` (issue 29). It is not a reason (mini_swe_agent_2 writes it whatever stopped its loop), but it is
 * the harness saying the episode came back whole and was graded, which is what the policy signal asks;
 * `finished` and `budget_exhausted` are both in the signal (trajectory-format.md §4), so the signal does not
 * depend on which. The record says which rule read it (`extra.termination_evidence`).
 */
const COMPLETED_STATUS = 'response.status "completed", no stop recorded';

function nemoGymTermination(row: Json, order: ReadonlyArray<Generation | Json>): { termination: string; evidence?: string } {
  const response = rec(row.response);
  if (response?.error !== undefined && response.error !== null) return { termination: 'infra_failure' };
  const reason = rec(row.result)?.termination_reason;
  if (reason !== undefined) return { termination: tau2Termination(reason) };
  const termination = recordedStop(row, response, order) ?? modelStop(response) ?? lastTurnStop(order);
  if (termination === 'unknown' && str(response?.status) === 'completed') return { termination: 'finished', evidence: COMPLETED_STATUS };
  return { termination };
}

const MAPPED = ['responses_create_params', 'response', 'reward', '_ng_task_index', '_ng_rollout_index'];

export const convertNemoGym: Convert = (row, ctx) => {
  const response = rec(row.response);
  if (!response) throw new ConvertError('response: expected a Responses API object');
  const output = list(response.output);
  if (!output) throw new ConvertError('response.output: expected an array of output items');
  const params = rec(row.responses_create_params);
  const transcript = inputMessages(params?.input);
  const prompt = transcript.length;
  // The task is the first user turn of the input (a string input is one): the record's text, not "none recorded".
  const asked = transcript.find((m) => m.role === 'user' && typeof m.content === 'string' && m.content !== '')?.content;
  const order = generations(output);
  const segments: Json[] = [];
  const steps: Json[] = [];
  const calls = new Map<string, ToolCall>();
  for (const entry of order) {
    if (isGeneration(entry)) {
      const gen = entry;
      const message = generationMessage(gen);
      const ids = (message.tool_calls ?? []).map((c) => c.id).filter((id): id is string => id !== undefined);
      for (const c of message.tool_calls ?? []) if (c.id !== undefined) calls.set(c.id, c);
      segments.push(
        compact({
          input_ids: gen.tokens?.input ?? [],
          generated_ids: gen.tokens?.generated ?? [],
          old_logprobs: gen.tokens?.logprobs ?? [],
          tool_call_id: ids[0] ?? null,
          tool_call_ids: ids.length > 1 ? ids : undefined,
          text: message.content ?? undefined,
          transcript_index: transcript.length,
        }),
      );
      transcript.push(message);
      continue;
    }
    const item = entry as Json;
    if (item.type === 'function_call_output') {
      const id = str(item.call_id);
      const text = typeof item.output === 'string' ? item.output : JSON.stringify(item.output ?? '');
      transcript.push(compact({ role: 'tool', content: text, tool_call_id: id }));
      const call = id === undefined ? undefined : calls.get(id);
      if (id !== undefined && call) {
        const args = parsedArguments(call);
        steps.push(compact({ tool_call_id: id, tool: call.name ?? '', args, observation: compact({ text, status: str(item.status) }) }));
      }
    } else if (typeof item.role === 'string') {
      transcript.push({ role: item.role, content: itemText(item) });
    } else transcript.push({ role: 'unknown', content: null, item });
  }
  const reward = row.reward === undefined || row.reward === null ? null : num(row.reward);
  if (reward === undefined) throw new ConvertError('reward: expected a number or null');
  const { termination, evidence } = nemoGymTermination(row, order);
  const extra: Json = compact({
    ...unmapped(row, MAPPED),
    termination_evidence: evidence,
    response: unmapped(response, ['output']),
    responses_create_params: params ? unmapped(params, ['input']) : undefined,
    prompt_messages: prompt,
  });
  const task = idOf(row._ng_task_index);
  const rolloutIndex = idOf(row._ng_rollout_index);
  const model = str(response.model);
  return [
    compact({
      source_format: 'nemo-gym',
      task_id: task ?? locator(ctx),
      rollout_id: task !== undefined && rolloutIndex !== undefined ? `${task}/${rolloutIndex}` : locator(ctx),
      task: typeof asked === 'string' ? { prompt: asked } : undefined,
      policy_version: model === '' ? undefined : model,
      sampling: samplingFrom(params),
      transcript,
      segments,
      steps: steps.length > 0 ? steps : undefined,
      termination,
      reward: rewardFor(termination, reward, extra),
      extra,
    }),
  ];
};

/** A NeMo Gym rollout (detection): a Responses API `response` with `output`, and `_ng_*` or `responses_create_params`. */
export function isNemoGymRollout(v: Json): boolean {
  const response = rec(v.response);
  return response !== undefined && Array.isArray(response.output) && ('_ng_task_index' in v || 'responses_create_params' in v);
}
