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

/**
 * The agent loop's own stopping rules (simple_agent/app.py): `incomplete_details` (a max_output_tokens
 * cut) or `max_steps` end the run `incomplete`; a model turn with an assistant message and no function
 * call ends it `completed`. tau2's agent records tau2's `termination_reason` under `result`.
 */
function nemoGymTermination(row: Json, last: Json | Generation | undefined): string {
  const response = rec(row.response);
  if (response?.error !== undefined && response.error !== null) return 'infra_failure';
  const reason = rec(row.result)?.termination_reason;
  if (reason !== undefined) return tau2Termination(reason);
  if (response?.incomplete_details !== undefined && response.incomplete_details !== null) return 'budget_exhausted';
  const status = str(response?.status);
  const byStatus: Record<string, Termination> = { failed: 'infra_failure', cancelled: 'cancelled', incomplete: 'budget_exhausted' };
  const mapped = status === undefined ? undefined : byStatus[status];
  if (mapped) return mapped;
  if (last && 'items' in last && Array.isArray(last.items)) {
    const items = last.items as Json[];
    const answered = items.some((i) => i.type === 'message') && !items.some((i) => i.type === 'function_call');
    return answered ? 'finished' : 'budget_exhausted'; // ended on a tool call: only max_steps stops there
  }
  // The last item is a tool output or a user message: the loop was stopped from outside it.
  return last ? 'budget_exhausted' : 'unknown';
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
    if ('items' in entry && Array.isArray(entry.items)) {
      const gen = entry as unknown as Generation;
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
  const termination = nemoGymTermination(row, order[order.length - 1] as Json | Generation | undefined);
  const extra: Json = compact({
    ...unmapped(row, MAPPED),
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
