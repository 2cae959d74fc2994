import { compact, idOf, isRecord, type Json, list, rec, str } from '../read';
import { contentText, type Message, normalizeMessage, type ToolCall } from '../transcript';
import { ConvertError } from '../types';
import { type Attrs, asText, parseOrText } from './attributes';
import { call, flattenedMessages, openInferenceMessages } from './flattenedMessages';
import type { Span, SpanEvent } from './spans';

/*
 * The messages of a model call, from whichever of the conventions its instrumentation wrote:
 * - GenAI semantic conventions 1.37+: `gen_ai.input.messages`, `gen_ai.output.messages`,
 *   `gen_ai.system_instructions` (JSON of `{role, parts: [{type: text|reasoning|tool_call|tool_call_response, …}]}`);
 * - the events of semconv 1.28–1.36: `gen_ai.system.message`, `gen_ai.user.message`, `gen_ai.assistant.message`,
 *   `gen_ai.tool.message`, `gen_ai.choice` (fields on the event, or JSON in `gen_ai.event.content`),
 *   and the older `gen_ai.content.prompt` / `gen_ai.content.completion` events (`gen_ai.prompt` / `gen_ai.completion`);
 * - the deprecated flattened attributes `gen_ai.prompt.N.*` / `gen_ai.completion.N.*` (OpenLLMetry);
 * - OpenInference `llm.input_messages.N.message.*` / `llm.output_messages.N.message.*`;
 * - any-agent's `gen_ai.output` (+ `gen_ai.output.type`) on its `call_llm` spans.
 */

export interface Output {
  message?: Message;
  /** Further output messages (other choices), kept beside the segment. */
  others?: Message[];
  finishReasons: string[];
}

/** A GenAI-conventions message (`parts`): text, reasoning and calls on one message; each tool response its own `tool` message. */
function partsMessages(raw: Json, fallbackRole: string): { messages: Message[]; finish?: string } {
  const role = str(raw.role) ?? fallbackRole;
  const texts: string[] = [];
  const thoughts: string[] = [];
  const calls: ToolCall[] = [];
  const responses: Message[] = [];
  const other: unknown[] = [];
  for (const part of list(raw.parts) ?? []) {
    const p = rec(part);
    const type = str(p?.type);
    const text = str(p?.content) ?? str(p?.text);
    if (p && type === 'text' && text !== undefined) texts.push(text);
    else if (p && (type === 'reasoning' || type === 'thinking') && text !== undefined) thoughts.push(text);
    else if (p && type === 'tool_call') calls.push(call(p.id, p.name, p.arguments));
    else if (p && type === 'tool_call_response') {
      const response = p.response ?? p.result ?? p.content;
      const message: Message = compact({ role: 'tool', content: asText(response) ?? null, tool_call_id: idOf(p.id), name: str(p.name) });
      if (role !== 'tool') message.source_role = role;
      responses.push(message);
    } else other.push(part);
  }
  const { parts: _parts, role: _role, finish_reason, content: _content, ...rest } = raw;
  const messages: Message[] = [];
  if (texts.length > 0 || thoughts.length > 0 || calls.length > 0 || other.length > 0 || responses.length === 0) {
    const m: Message = { ...rest, role, content: texts.length > 0 ? texts.join('\n') : null };
    if (thoughts.length > 0) m.reasoning = thoughts.join('\n');
    if (calls.length > 0) m.tool_calls = calls;
    if (other.length > 0) m.content_parts = other;
    messages.push(m);
  }
  messages.push(...responses);
  return { messages, finish: str(finish_reason) };
}

/** One message in any shape the conventions write (parts, or OpenAI-style `{role, content, tool_calls}`). */
function toMessages(raw: unknown, fallbackRole: string): { messages: Message[]; finish?: string } {
  if (typeof raw === 'string') return { messages: [{ role: fallbackRole, content: raw }] };
  const m = rec(raw);
  if (!m) return { messages: [] };
  if (Array.isArray(m.parts)) return partsMessages(m, fallbackRole);
  const withRole = typeof m.role === 'string' ? m : { ...m, role: fallbackRole };
  const { finish_reason, ...fields } = withRole;
  try {
    const normalized = normalizeMessage(fields, 'message');
    if (normalized) return { messages: [normalized], finish: str(finish_reason) };
  } catch (e) {
    if (!(e instanceof ConvertError)) throw e;
  }
  // Tool calls of a shape no reader knows: the text is kept, the calls as written.
  const { text } = contentText(fields.content);
  return { messages: [{ role: String(fields.role), content: text, raw_message: m }], finish: str(finish_reason) };
}

/** A list of messages (a JSON string, an array, or one message). */
function messagesOf(v: unknown, fallbackRole: string): { messages: Message[]; finishReasons: string[] } {
  const value = typeof v === 'string' ? parseOrText(v) : v;
  const items = Array.isArray(value) ? value : value === undefined || value === null ? [] : [value];
  const messages: Message[] = [];
  const finishReasons: string[] = [];
  for (const item of items) {
    const { messages: ms, finish } = toMessages(item, fallbackRole);
    messages.push(...ms);
    if (finish !== undefined) finishReasons.push(finish);
  }
  return { messages, finishReasons };
}

/** `gen_ai.system_instructions`: parts (or text) as one system message. */
function systemInstructions(attrs: Attrs): Message | undefined {
  const v = attrs.json('gen_ai.system_instructions');
  if (v === undefined) return undefined;
  if (typeof v === 'string') return { role: 'system', content: v };
  const parts = Array.isArray(v) ? v : [v];
  const texts = parts.flatMap((p) => (isRecord(p) && typeof (p.content ?? p.text) === 'string' ? [String(p.content ?? p.text)] : []));
  const m: Message = { role: 'system', content: texts.join('\n') };
  if (texts.length !== parts.length) m.content_parts = parts;
  return m;
}

/** A message event whose every attribute became a message is not repeated under `extra` (one with more stays, less what was taken). */
function taken(e: SpanEvent): void {
  if (e.attrs.unused() === undefined) e.used = true;
}

const INPUT_EVENTS: Record<string, string> = {
  'gen_ai.system.message': 'system',
  'gen_ai.user.message': 'user',
  'gen_ai.assistant.message': 'assistant',
  'gen_ai.tool.message': 'tool',
};

/** The body of a message event: JSON in `gen_ai.event.content`, or fields on the event. */
function eventBody(e: SpanEvent): Json {
  const packed = e.attrs.json('gen_ai.event.content');
  if (isRecord(packed)) return packed;
  const body: Json = {};
  for (const k of ['content', 'role', 'tool_calls', 'id', 'message', 'finish_reason', 'index']) {
    const v = e.attrs.get(k);
    if (v !== undefined) body[k] = typeof v === 'string' && k !== 'content' && k !== 'id' && k !== 'role' ? parseOrText(v) : v;
  }
  return body;
}

function eventMessage(body: Json, role: string): Message[] {
  const { id, content, ...fields } = body;
  const parsed = typeof content === 'string' && content.trimStart().startsWith('[') ? parseOrText(content) : content;
  const { messages } = toMessages({ ...fields, role: str(fields.role) ?? role, content: parsed }, role);
  const first = messages[0];
  if (first && role === 'tool' && first.tool_call_id === undefined && idOf(id) !== undefined) first.tool_call_id = idOf(id);
  return messages;
}

/** Semconv 1.37+ may put the messages on a `gen_ai.client.inference.operation.details` event instead of the span. */
function details(span: Span, key: string): Attrs | undefined {
  if (span.attrs.has(key)) return span.attrs;
  return span.events.find((e) => e.name === 'gen_ai.client.inference.operation.details' && e.attrs.has(key))?.attrs;
}

/** The messages a model call was given (its context), or undefined when the span records none. */
export function inputMessages(span: Span): Message[] | undefined {
  const { attrs } = span;
  const system = systemInstructions(details(span, 'gen_ai.system_instructions') ?? attrs);
  const semconv = details(span, 'gen_ai.input.messages');
  let messages: Message[] | undefined;
  if (semconv) messages = messagesOf(semconv.json('gen_ai.input.messages'), 'user').messages;
  else if (attrs.has('llm.input_messages') || Object.keys(attrs.values).some((k) => k.startsWith('llm.input_messages.')))
    messages = openInferenceMessages(attrs, 'llm.input_messages');
  else if (Object.keys(attrs.values).some((k) => k.startsWith('gen_ai.prompt.')))
    messages = flattenedMessages(attrs, 'gen_ai.prompt')?.messages;
  if (!messages) {
    const events = span.events.filter((e) => e.name in INPUT_EVENTS || e.name === 'gen_ai.content.prompt');
    if (events.length > 0) {
      messages = events.flatMap((e) => {
        const ms =
          e.name === 'gen_ai.content.prompt'
            ? messagesOf(e.attrs.json('gen_ai.prompt'), 'user').messages
            : eventMessage(eventBody(e), INPUT_EVENTS[e.name] as string);
        taken(e);
        return ms;
      });
    }
  }
  if (!messages && attrs.values['input.mime_type'] !== 'application/json') {
    // OpenInference without messages: `input.value` when it is text (JSON is the raw request, kept in extra).
    const text = attrs.str('input.value');
    if (text !== undefined) {
      attrs.get('input.mime_type');
      messages = [{ role: 'user', content: text }];
    }
  }
  if (system && !(messages?.[0]?.role === 'system')) messages = [system, ...(messages ?? [])];
  return messages;
}

/** any-agent's `gen_ai.output`: JSON tool calls `[{"tool.name", "tool.args"}]`, or the answer text. */
function anyAgentOutput(attrs: Attrs): Output | undefined {
  const raw = attrs.str('gen_ai.output');
  if (raw === undefined) return undefined;
  const type = attrs.str('gen_ai.output.type');
  const parsed = type === 'json' ? parseOrText(raw) : raw;
  const calls = list(parsed);
  if (calls?.every((c) => isRecord(c) && typeof c['tool.name'] === 'string')) {
    const toolCalls = calls.map((c) => call(undefined, (c as Json)['tool.name'], (c as Json)['tool.args']));
    return { message: { role: 'assistant', content: null, tool_calls: toolCalls }, finishReasons: [] };
  }
  return { message: { role: 'assistant', content: raw }, finishReasons: [] };
}

function outputFrom(messages: Message[], finishReasons: string[]): Output {
  const [message, ...others] = messages;
  return { message, others: others.length > 0 ? others : undefined, finishReasons };
}

/** What a model call generated: its first output message (others beside it) and its finish reasons. */
export function outputOf(span: Span): Output {
  const { attrs } = span;
  const reasons = (v: unknown) =>
    Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : typeof v === 'string' ? [v] : [];
  const declared = reasons(attrs.get('gen_ai.response.finish_reasons') ?? attrs.get('llm.finish_reason'));
  const merge = (found: string[]) => (declared.length > 0 ? declared : found);
  const semconv = details(span, 'gen_ai.output.messages');
  if (semconv) {
    const { messages, finishReasons } = messagesOf(semconv.json('gen_ai.output.messages'), 'assistant');
    return outputFrom(messages, merge(finishReasons));
  }
  if (Object.keys(attrs.values).some((k) => k.startsWith('llm.output_messages'))) {
    return outputFrom(openInferenceMessages(attrs, 'llm.output_messages') ?? [], declared);
  }
  const flat = flattenedMessages(attrs, 'gen_ai.completion');
  if (flat) return outputFrom(flat.messages, merge(flat.finishReasons));
  const choices = span.events.filter((e) => e.name === 'gen_ai.choice' || e.name === 'gen_ai.content.completion');
  if (choices.length > 0) {
    const messages: Message[] = [];
    const found: string[] = [];
    for (const e of choices) {
      if (e.name === 'gen_ai.content.completion') {
        const v = e.attrs.json('gen_ai.completion');
        messages.push(...messagesOf(v, 'assistant').messages);
        taken(e);
        continue;
      }
      const body = eventBody(e);
      const finish = str(body.finish_reason);
      if (finish !== undefined) found.push(finish);
      // `message` is an object (`{role, content, tool_calls}`), or content blocks (`[{"text": …}]`, Strands).
      const inner = rec(body.message) ?? {
        content: Array.isArray(body.message) ? body.message : body.content,
        tool_calls: body.tool_calls,
      };
      messages.push(...eventMessage({ ...inner, role: str(inner.role) ?? 'assistant' }, 'assistant'));
      taken(e);
    }
    return outputFrom(messages, merge(found));
  }
  const agent = anyAgentOutput(attrs);
  if (agent) return { ...agent, finishReasons: declared };
  // OpenInference without messages: `output.value` when it is text (JSON is the raw response, kept in extra).
  if (attrs.values['output.mime_type'] !== 'application/json') {
    const text = attrs.str('output.value');
    if (text !== undefined) {
      attrs.get('output.mime_type');
      return { message: { role: 'assistant', content: text }, finishReasons: declared };
    }
  }
  return { finishReasons: declared };
}
