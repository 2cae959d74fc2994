import { idOf, isRecord, type Json, str } from '../read';
import { contentText } from '../transcript';

/*
 * The common ways agent frameworks write a conversation, each turned into OpenAI-style chat messages
 * (`role`, text `content`, `tool_calls: [{id, name, arguments}]`, `role: "tool"` with `tool_call_id`), which
 * the mapped reader then reads as any chat (docs/formats.md, "Read by shape"). A message list names its shape
 * in a field mapping (`messages.shape`); the structural reader infers it (structural.ts).
 */

export const MESSAGE_SHAPES = ['chat', 'responses', 'anthropic', 'gemini', 'sharegpt', 'langchain', 'smolagents', 'steps'] as const;
export type MessageShape = (typeof MESSAGE_SHAPES)[number];

/** A message in chat form, as the readers below give it. */
export type Out = Json & { role: string };

const argumentsText = (v: unknown): string | undefined => (v === undefined ? undefined : typeof v === 'string' ? v : JSON.stringify(v));

/** Text of a content value or of an object's `text` / `content`, for results written in any of these ways. */
function anyText(v: unknown): string | null {
  if (typeof v === 'string') return v;
  if (v === null || v === undefined) return null;
  const { text } = contentText(v);
  if (text !== null && text !== '') return text;
  return JSON.stringify(v);
}

/** Responses API items: messages, function calls (consecutive ones are one assistant turn) and their outputs. */
function fromResponses(items: readonly unknown[]): Out[] {
  const out: Out[] = [];
  let open: Out | null = null;
  for (const raw of items) {
    if (!isRecord(raw)) continue;
    if (raw.type === 'function_call') {
      const call = { id: idOf(raw.call_id) ?? idOf(raw.id), name: str(raw.name), arguments: argumentsText(raw.arguments) };
      if (open) (open.tool_calls as Json[]).push(call);
      else {
        open = { role: 'assistant', content: null, tool_calls: [call] };
        out.push(open);
      }
      continue;
    }
    open = null;
    if (raw.type === 'function_call_output') out.push({ role: 'tool', tool_call_id: idOf(raw.call_id), content: anyText(raw.output) });
    else if (raw.type === 'reasoning') continue;
    else if (typeof raw.role === 'string') out.push({ role: raw.role, content: contentText(raw.content).text });
  }
  return out;
}

/** Anthropic Messages: `tool_use` blocks are calls of the assistant turn, `tool_result` blocks are tool messages. */
function fromAnthropic(messages: readonly unknown[]): Out[] {
  const out: Out[] = [];
  for (const m of messages) {
    if (!isRecord(m) || typeof m.role !== 'string') continue;
    if (!Array.isArray(m.content)) {
      out.push({ role: m.role, content: contentText(m.content).text });
      continue;
    }
    const texts: string[] = [];
    const calls: Json[] = [];
    for (const block of m.content) {
      if (!isRecord(block)) continue;
      if (block.type === 'text' && typeof block.text === 'string') texts.push(block.text);
      else if (block.type === 'tool_use') calls.push({ id: idOf(block.id), name: str(block.name), arguments: argumentsText(block.input) });
      else if (block.type === 'tool_result')
        out.push({ role: 'tool', tool_call_id: idOf(block.tool_use_id), content: anyText(block.content) });
    }
    if (texts.length > 0 || calls.length > 0 || m.role !== 'user')
      out.push({ role: m.role, content: texts.length > 0 ? texts.join('\n') : null, ...(calls.length > 0 ? { tool_calls: calls } : {}) });
  }
  return out;
}

/** Gemini contents: `parts` of text, `functionCall` and `functionResponse` (paired by order: they carry no id). */
function fromGemini(contents: readonly unknown[]): Out[] {
  const out: Out[] = [];
  for (const c of contents) {
    if (!isRecord(c) || !Array.isArray(c.parts)) continue;
    const role = c.role === 'model' ? 'assistant' : typeof c.role === 'string' ? c.role : 'user';
    const texts: string[] = [];
    const calls: Json[] = [];
    for (const p of c.parts) {
      if (!isRecord(p)) continue;
      if (typeof p.text === 'string') texts.push(p.text);
      const call = p.functionCall ?? p.function_call;
      const answer = p.functionResponse ?? p.function_response;
      if (isRecord(call)) calls.push({ id: idOf(call.id), name: str(call.name), arguments: argumentsText(call.args) });
      if (isRecord(answer))
        out.push({ role: 'tool', tool_call_id: idOf(answer.id), name: str(answer.name), content: anyText(answer.response) });
    }
    if (texts.length > 0 || calls.length > 0)
      out.push({ role, content: texts.length > 0 ? texts.join('\n') : null, ...(calls.length > 0 ? { tool_calls: calls } : {}) });
  }
  return out;
}

const SHAREGPT_ROLES: Record<string, string> = { human: 'user', user: 'user', gpt: 'assistant', assistant: 'assistant', system: 'system' };

/** ShareGPT: `from` / `value`; a `function_call` turn holds the call as JSON, an `observation` / `tool` turn its result. */
function fromShareGpt(turns: readonly unknown[]): Out[] {
  const out: Out[] = [];
  for (const t of turns) {
    if (!isRecord(t) || typeof t.from !== 'string') continue;
    const value = typeof t.value === 'string' ? t.value : anyText(t.value);
    if (t.from === 'function_call') {
      let call: Json = {};
      try {
        const parsed: unknown = JSON.parse(value ?? '');
        if (isRecord(parsed)) call = parsed;
      } catch {
        // Not JSON: the call is kept as text, with no name to join it by.
      }
      out.push({
        role: 'assistant',
        content: Object.keys(call).length === 0 ? value : null,
        tool_calls: [{ name: str(call.name), arguments: argumentsText(call.arguments ?? call.parameters) }],
      });
    } else if (t.from === 'observation' || t.from === 'tool' || t.from === 'function') out.push({ role: 'tool', content: value });
    else out.push({ role: SHAREGPT_ROLES[t.from] ?? t.from, content: value });
  }
  return out;
}

const LANGCHAIN_ROLES: Record<string, string> = {
  human: 'user',
  HumanMessage: 'user',
  ai: 'assistant',
  AIMessage: 'assistant',
  AIMessageChunk: 'assistant',
  tool: 'tool',
  ToolMessage: 'tool',
  system: 'system',
  SystemMessage: 'system',
};

/** LangChain message dicts (`type: human|ai|tool`, or `messages_to_dict`'s `{type, data}`). */
function fromLangChain(messages: readonly unknown[]): Out[] {
  const out: Out[] = [];
  for (const raw of messages) {
    if (!isRecord(raw) || typeof raw.type !== 'string') continue;
    const m = isRecord(raw.data) ? { ...raw.data, type: raw.type } : raw;
    const role = LANGCHAIN_ROLES[raw.type] ?? raw.type;
    const calls = Array.isArray(m.tool_calls)
      ? m.tool_calls.filter(isRecord).map((c) => ({ id: idOf(c.id), name: str(c.name), arguments: argumentsText(c.args ?? c.arguments) }))
      : [];
    out.push({
      role,
      content: contentText(m.content).text,
      ...(calls.length > 0 ? { tool_calls: calls } : {}),
      ...(idOf(m.tool_call_id) !== undefined ? { tool_call_id: idOf(m.tool_call_id) } : {}),
    });
  }
  return out;
}

/** smolagents ChatMessages: `tool-call` is the assistant's call, `tool-response` its result ("Call id: …" first). */
function fromSmolagents(messages: readonly unknown[]): Out[] {
  const out: Out[] = [];
  for (const m of messages) {
    if (!isRecord(m) || typeof m.role !== 'string') continue;
    const text = contentText(m.content).text;
    if (m.role === 'tool-call') {
      const calls = Array.isArray(m.tool_calls)
        ? m.tool_calls.filter(isRecord).map((c) => {
            const fn = isRecord(c.function) ? c.function : c;
            return { id: idOf(c.id), name: str(fn.name), arguments: argumentsText(fn.arguments) };
          })
        : [];
      out.push({ role: 'assistant', content: calls.length > 0 ? null : text, ...(calls.length > 0 ? { tool_calls: calls } : {}) });
    } else if (m.role === 'tool-response') {
      const id = /^Call id: ?(\S+)/.exec(text ?? '')?.[1];
      const body = (text ?? '').replace(/^Call id: ?\S+\s*/, '').replace(/^Observation:\s*/, '');
      out.push({ role: 'tool', content: body, ...(id !== undefined ? { tool_call_id: id } : {}) });
    } else out.push({ role: m.role, content: text });
  }
  return out;
}

/** Keys a step list uses for what the model did and what came back, in the order they are looked for. */
const ACTION_KEYS = ['action', 'tool_call', 'tool_calls'];
const TOOL_KEYS = ['tool', 'tool_name', 'name'];
const INPUT_KEYS = ['tool_input', 'input', 'arguments', 'args', 'parameters'];
const OBSERVATION_KEYS = ['observation', 'output', 'result', 'tool_output', 'response'];
const THOUGHT_KEYS = ['thought', 'thoughts', 'reasoning', 'log', 'model_output'];

const first = (o: Json, keys: readonly string[]): unknown => keys.map((k) => o[k]).find((v) => v !== undefined && v !== null);

/** A step of a step list: `[action, observation]` (LangChain intermediate_steps) or an object of them. */
function stepParts(raw: unknown): { thought: unknown; action: unknown; observation: unknown } | null {
  if (Array.isArray(raw) && raw.length === 2)
    return { thought: isRecord(raw[0]) ? raw[0].log : undefined, action: raw[0], observation: raw[1] };
  if (!isRecord(raw)) return null;
  return { thought: first(raw, THOUGHT_KEYS), action: first(raw, ACTION_KEYS) ?? raw, observation: first(raw, OBSERVATION_KEYS) };
}

/** Step lists: each step is the model's call (and thought) and what the tool returned, paired by order. */
function fromSteps(steps: readonly unknown[]): Out[] {
  const out: Out[] = [];
  for (const raw of steps) {
    const parts = stepParts(raw);
    if (!parts) continue;
    const action = isRecord(parts.action) ? parts.action : null;
    const name = action ? str(first(action, TOOL_KEYS)) : undefined;
    const thought = typeof parts.thought === 'string' ? parts.thought : null;
    if (name === undefined) {
      // A step without a tool: the model's text (a plain answer, or a command written as text).
      const said = typeof parts.action === 'string' ? parts.action : thought;
      out.push({ role: 'assistant', content: said });
    } else {
      const args = action ? first(action, INPUT_KEYS) : undefined;
      out.push({ role: 'assistant', content: thought, tool_calls: [{ name, arguments: argumentsText(args) }] });
    }
    if (parts.observation !== undefined) out.push({ role: 'tool', content: anyText(parts.observation) });
  }
  return out;
}

const READERS: Record<MessageShape, (items: readonly unknown[]) => Out[]> = {
  // The calls are copied too: pairing gives id-less ones an id, and must not write into the source's objects.
  chat: (items) =>
    items.filter(isRecord).map((m) => {
      const out: Out = { ...m, role: String(m.role ?? 'unknown') };
      if (Array.isArray(m.tool_calls)) out.tool_calls = m.tool_calls.map((c: unknown) => (isRecord(c) ? { ...c } : c));
      return out;
    }),
  responses: fromResponses,
  anthropic: fromAnthropic,
  gemini: fromGemini,
  sharegpt: fromShareGpt,
  langchain: fromLangChain,
  smolagents: fromSmolagents,
  steps: fromSteps,
};

/**
 * The list as OpenAI-style chat messages. Calls and results with no ids are paired by order (each result
 * answers the oldest call still open): both get the id `<where>/call-<n>`, and the result is marked
 * `joined_by: "position"` so the step can say so.
 */
export function toChatMessages(shape: MessageShape, items: readonly unknown[], where: string): Out[] {
  return pairByPosition(readShape(shape, items), where);
}

/**
 * The messages of a list, before any call is paired (`pairByPosition`): the structural reader looks at their
 * roles while detecting, and pairs them once it knows the record's location, which the ids are made from.
 * Every shape gives new objects (messages and calls): the source is never written into.
 */
export function readShape(shape: MessageShape, items: readonly unknown[]): Out[] {
  return READERS[shape](items);
}

/** Gives calls with no id the id `<where>/call-<n>` and joins id-less results to them by order, in place. */
export function pairByPosition(messages: Out[], where: string): Out[] {
  const open: Json[] = [];
  let n = 0;
  for (const m of messages) {
    if (Array.isArray(m.tool_calls)) {
      for (const call of m.tool_calls as unknown[]) {
        // A call that is not an object (a string, null) is the converter's to refuse, naming the field; here it
        // is skipped, so one odd record cannot throw out of the reader and take its file's other lines with it.
        if (!isRecord(call)) continue;
        if (call.id === undefined) {
          call.id = `${where}/call-${n++}`;
          call.id_is_position = true;
        }
        open.push(call);
      }
    } else if (m.role === 'tool') {
      if (m.tool_call_id === undefined) {
        const answered = open.shift();
        if (answered?.id !== undefined) {
          m.tool_call_id = answered.id;
          m.joined_by = 'position';
        }
      } else {
        const at = open.findIndex((c) => c.id === m.tool_call_id);
        if (at !== -1) open.splice(at, 1);
      }
    }
  }
  return messages;
}
