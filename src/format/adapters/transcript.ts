import { parseJson } from '../json';
import { idOf, isRecord, type Json, rec, str } from './read';
import { ConvertError } from './types';

/*
 * Chat messages from any source, normalized to the transcript shape of schema.ts: `content` is text,
 * tool calls are `{id, name, arguments}` with the arguments as the model wrote them. Every other field of
 * a message is kept as it was.
 */

export interface ToolCall extends Json {
  id?: string;
  name?: string;
  arguments?: string;
}

export interface Message extends Json {
  role: string;
  content: string | null;
  tool_calls?: ToolCall[];
  tool_call_id?: string;
}

/**
 * A tool call in any of the shapes sources write: verifiers' JSON string or `{id, name, arguments}`,
 * OpenAI's `{id, type: "function", function: {name, arguments}}`, rLLM's `{name, arguments: {...}}`.
 */
export function normalizeToolCall(raw: unknown, path: string): ToolCall {
  let value = raw;
  if (typeof raw === 'string') {
    try {
      value = parseJson(raw);
    } catch {
      throw new ConvertError(`${path}: a tool call written as a string must be JSON`);
    }
  }
  if (!isRecord(value)) throw new ConvertError(`${path}: expected a tool call object`);
  const { function: fn, type, id, name, arguments: args, ...rest } = value;
  const inner = rec(fn);
  const out: ToolCall = { ...rest };
  if (type !== undefined && type !== 'function') out.type = type;
  const callId = idOf(id);
  if (callId !== undefined) out.id = callId;
  const callName = str(inner?.name) ?? str(name);
  if (callName !== undefined) out.name = callName;
  const callArgs = argumentsText(inner ? inner.arguments : args);
  if (callArgs !== undefined) out.arguments = callArgs;
  return out;
}

function argumentsText(v: unknown): string | undefined {
  if (v === undefined || v === null) return undefined;
  return typeof v === 'string' ? v : JSON.stringify(v);
}

/**
 * Message content as text. The text parts of a multi-part content are joined by newlines, and the
 * original parts (images and audio included) are kept beside it as `content_parts`.
 */
export function contentText(content: unknown): { text: string | null; parts?: unknown[] } {
  if (typeof content === 'string') return { text: content };
  if (content === null || content === undefined) return { text: null };
  if (!Array.isArray(content)) return { text: null, parts: [content] };
  const texts: string[] = [];
  for (const part of content) {
    if (typeof part === 'string') texts.push(part);
    else if (isRecord(part) && typeof part.text === 'string' && (part.type === 'text' || part.type === undefined)) texts.push(part.text);
  }
  return { text: texts.join('\n'), parts: content };
}

/** A chat message, or null when the value has no string `role` (not a message). */
export function normalizeMessage(raw: unknown, path: string): Message | null {
  if (!isRecord(raw) || typeof raw.role !== 'string') return null;
  const { role, content, tool_calls, tool_call_id, name, reasoning_content, reasoning, ...rest } = raw;
  const { text, parts } = contentText(content);
  const out: Message = { ...rest, role, content: text };
  if (parts) out.content_parts = parts;
  const thought = str(reasoning_content) ?? str(reasoning);
  if (thought !== undefined) out.reasoning = thought;
  else if (reasoning !== undefined) out.reasoning_raw = reasoning;
  if (Array.isArray(tool_calls) && tool_calls.length > 0) {
    out.tool_calls = tool_calls.map((c, i) => normalizeToolCall(c, `${path}.tool_calls[${i}]`));
  }
  const callId = idOf(tool_call_id);
  if (callId !== undefined) out.tool_call_id = callId;
  if (typeof name === 'string') out.name = name;
  return out;
}

/** Normalizes a message list; a non-message entry is a ConvertError naming its index. */
export function normalizeMessages(raw: unknown, path: string): Message[] {
  if (!Array.isArray(raw)) throw new ConvertError(`${path}: expected an array of chat messages`);
  return raw.map((m, i) => {
    const message = normalizeMessage(m, `${path}[${i}]`);
    if (!message) throw new ConvertError(`${path}[${i}]: expected a chat message with a string "role"`);
    return message;
  });
}

/** A text-only segment for an assistant message: empty id arrays, never invented ones. */
export function textSegment(message: Message, transcriptIndex: number | undefined): Json {
  const ids = (message.tool_calls ?? []).map((c) => c.id).filter((id): id is string => id !== undefined);
  const segment: Json = { input_ids: [], generated_ids: [], old_logprobs: [], tool_call_id: ids[0] ?? null };
  if (ids.length > 1) segment.tool_call_ids = ids;
  if (message.content !== null) segment.text = message.content;
  if (transcriptIndex !== undefined) segment.transcript_index = transcriptIndex;
  return segment;
}

/** Parsed tool-call arguments when they are a JSON object (v1 `args` is an object), else undefined. */
export function parsedArguments(call: ToolCall | undefined): Json | undefined {
  if (call?.arguments === undefined) return undefined;
  // Only an object can be `args`: text that does not open one (code, a command) is not tried, since a
  // thrown SyntaxError per call was the largest cost of reading such traces.
  if (!/^\s*\{/.test(call.arguments)) return undefined;
  try {
    return rec(parseJson(call.arguments));
  } catch {
    return undefined;
  }
}

/** A v1 step for a tool result: joined to its call by id, the tool named by that call. */
export function toolStep(message: Message, calls: ReadonlyMap<string, ToolCall>): Json | null {
  if (message.tool_call_id === undefined) return null;
  const call = calls.get(message.tool_call_id);
  const step: Json = {
    tool_call_id: message.tool_call_id,
    tool: call?.name ?? str(message.name) ?? '',
    observation: { text: message.content ?? '' },
  };
  const args = parsedArguments(call);
  if (args) step.args = args;
  return step;
}

/** Every tool call of the messages, by id. */
export function callsById(messages: readonly Message[]): Map<string, ToolCall> {
  const calls = new Map<string, ToolCall>();
  for (const m of messages) for (const c of m.tool_calls ?? []) if (c.id !== undefined && !calls.has(c.id)) calls.set(c.id, c);
  return calls;
}

/**
 * Segments and steps of a linear chat: each assistant message from `firstGenerated` on is a segment
 * whose context is the transcript before it; each tool message from there on is a step. Messages before
 * `firstGenerated` (the prompt, few-shot turns) are context only.
 */
export function chatTurns(messages: readonly Message[], firstGenerated: number): { segments: Json[]; steps: Json[] } {
  const calls = callsById(messages);
  const segments: Json[] = [];
  const steps: Json[] = [];
  messages.forEach((m, i) => {
    if (i < firstGenerated) return;
    if (m.role === 'assistant') segments.push(textSegment(m, i));
    else if (m.role === 'tool') {
      const step = toolStep(m, calls);
      if (step) steps.push(step);
    }
  });
  return { segments, steps };
}
