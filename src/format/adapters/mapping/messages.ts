import { compact, idOf, isRecord, type Json, list, locator, str } from '../read';
import { contentText, type Message, normalizeMessage, normalizeToolCall, type ToolCall } from '../transcript';
import { type ConvertContext, ConvertError } from '../types';
import { at } from './path';
import type { FieldMapping } from './schema';
import { type Out, pairByPosition, toChatMessages } from './shapes';

/*
 * A mapped record's messages and tool calls, as the mapping names their fields. Every message a file holds
 * passes here, so the usual forms (a chat message whose fields have their usual names, a message a shape's
 * reader wrote) are made in one step; any other takes the general way, `renamed` then `normalizeMessage`,
 * and both ways give the same keys in the same order.
 */

/** A message's or a turn's tool calls (one call or a list), read through the mapping's `tool_call` names. */
export function mappedCalls(raw: unknown, mapping: FieldMapping, where: string): ToolCall[] {
  const items = raw === undefined || raw === null ? [] : Array.isArray(raw) ? raw : [raw];
  const f = mapping.tool_call;
  return items.map((item, i) => {
    if (!f) return normalizeToolCall(item, `${where}[${i}]`);
    const id = idOf(at(item, f.id ?? 'id'));
    const name = str(at(item, f.name ?? 'name'));
    const args = at(item, f.arguments ?? 'arguments');
    return compact({ id, name, arguments: args === undefined ? undefined : typeof args === 'string' ? args : JSON.stringify(args) });
  });
}

/**
 * The messages at the mapping's `messages.path`, as transcript messages: roles renamed by `roles`, another
 * shape read into chat first. `unpaired`: that shape's messages already read, not yet paired (readByShape).
 */
export function renamedMessages(
  raw: unknown,
  mapping: NonNullable<FieldMapping['messages']>,
  full: FieldMapping,
  ctx: ConvertContext,
  unpaired: Out[] | undefined,
): Message[] {
  const listed = list(raw);
  if (!listed) throw new ConvertError(`${mapping.path}: expected an array of messages (the mapping's messages.path)`);
  // Another shape (Anthropic blocks, Gemini parts, a step list, ...) is read into chat messages first.
  if (mapping.shape !== undefined && mapping.shape !== 'chat') {
    const where = `${locator(ctx)}/${mapping.path}`;
    const items = unpaired ? pairByPosition(unpaired, where) : toChatMessages(mapping.shape, listed, where);
    return items.map((m, i) => shapedMessage(m, mapping.roles) ?? renamed(m, true, mapping, full, `${mapping.path}[${i}]`));
  }
  const plain =
    mapping.role === undefined && mapping.content === undefined && mapping.tool_calls === undefined && mapping.tool_call_id === undefined;
  const messages = listed.map((m, i) => {
    const where = `${mapping.path}[${i}]`;
    return (plain ? chatMessage(m, mapping.roles, full, where) : null) ?? renamed(m, false, mapping, full, where);
  });
  // Calls with no id are paired with their results by order, as every other shape's are. The messages are
  // new objects (chatMessage, normalizeMessage): the source is not written into.
  return pairByPosition(messages as Out[], `${locator(ctx)}/${mapping.path}`) as Message[];
}

function renamed(m: unknown, shaped: boolean, mapping: NonNullable<FieldMapping['messages']>, full: FieldMapping, where: string): Message {
  const role = str(at(m, shaped ? 'role' : (mapping.role ?? 'role')));
  if (role === undefined)
    throw new ConvertError(`${where}.${mapping.role ?? 'role'}: expected the message's role (the mapping's messages.role)`);
  const calls = at(m, shaped ? 'tool_calls' : (mapping.tool_calls ?? 'tool_calls'));
  const out: Json = {
    ...(isRecord(m) ? m : {}),
    role: mapping.roles?.[role] ?? role,
    content: at(m, shaped ? 'content' : (mapping.content ?? 'content')) ?? null,
    tool_call_id: at(m, shaped ? 'tool_call_id' : (mapping.tool_call_id ?? 'tool_call_id')),
    tool_calls: calls === undefined ? undefined : shaped ? calls : mappedCalls(calls, full, `${where}.tool_calls`),
  };
  if (out.role !== role) out.source_role = role;
  return normalizeMessage(out, where) ?? { role, content: null };
}

/** Keys `normalizeMessage` reads (and places itself); a message's other keys are kept, first, in their order. */
const MESSAGE_KEYS = new Set(['role', 'content', 'tool_calls', 'tool_call_id', 'name', 'reasoning_content', 'reasoning']);

/**
 * What `renamed` then `normalizeMessage` make of a chat message whose fields have their usual names, made
 * at once (each copied the message whole). Same keys, same order; null for a message the general way must
 * read (no string role, a `__proto__` or `source_role` key of its own).
 */
function chatMessage(m: unknown, roles: Readonly<Record<string, string>> | undefined, full: FieldMapping, where: string): Message | null {
  if (!isRecord(m) || !Object.hasOwn(m, 'role')) return null;
  const role = m.role;
  if (typeof role !== 'string') return null;
  const named = roles === undefined ? role : (roles[role] ?? role);
  if (typeof named !== 'string') return null;
  const kept: Json = {};
  for (const key in m) {
    if (!Object.hasOwn(m, key) || key === '__proto__' || key === 'source_role') return null;
    if (!MESSAGE_KEYS.has(key)) kept[key] = m[key];
  }
  // Calls first, as `renamed` reads them, so a call that is not one fails with the same message.
  const calls = m.tool_calls === undefined ? undefined : mappedCalls(m.tool_calls, full, `${where}.tool_calls`);
  if (named !== role) kept.source_role = role;
  const { text, parts } = contentText(m.content);
  const out: Message = Object.assign(kept, { role: named, content: text });
  if (parts) out.content_parts = parts;
  const thought = str(m.reasoning_content) ?? str(m.reasoning);
  if (thought !== undefined) out.reasoning = thought;
  else if (m.reasoning !== undefined) out.reasoning_raw = m.reasoning;
  // normalizeMessage would normalize the calls again: a normalized call is its own normal form.
  if (calls !== undefined && calls.length > 0) out.tool_calls = calls;
  const callId = idOf(m.tool_call_id);
  if (callId !== undefined) out.tool_call_id = callId;
  if (typeof m.name === 'string') out.name = m.name;
  return out;
}

/** Keys a shape's reader (shapes.ts) gives a message, and the two pairing adds. */
const SHAPED_KEYS = new Set(['role', 'content', 'tool_calls', 'tool_call_id', 'name', 'joined_by']);
const SHAPED_CALL_KEYS = new Set(['id', 'name', 'arguments', 'id_is_position']);

/**
 * What `renamed` then `normalizeMessage` make of a message a shape's reader wrote, made at once: that pair
 * copied each message twice and was most of reading a file by shape. Same keys, same order; null for a
 * message of any other form, which takes the general way.
 */
function shapedMessage(m: Out, roles: Readonly<Record<string, string>> | undefined): Message | null {
  const role = m.role;
  if (typeof role !== 'string') return null;
  const named = roles === undefined ? role : (roles[role] ?? role);
  const content = m.content ?? null;
  if (typeof named !== 'string' || (typeof content !== 'string' && content !== null)) return null;
  for (const key in m) if (!SHAPED_KEYS.has(key)) return null;
  const calls = m.tool_calls;
  let normalized: ToolCall[] | undefined;
  if (Array.isArray(calls) && calls.length > 0) {
    normalized = [];
    for (const call of calls) {
      const c = shapedCall(call);
      if (c === null) return null;
      normalized.push(c);
    }
  } else if (calls !== undefined && !Array.isArray(calls)) return null;
  // normalizeMessage puts the keys it does not know first: `joined_by`, then `source_role`.
  const joined = Object.hasOwn(m, 'joined_by');
  const out: Message =
    joined || named !== role
      ? {
          ...(joined ? { joined_by: m.joined_by } : {}),
          ...(named !== role ? { source_role: role } : {}),
          role: named,
          content,
        }
      : { role: named, content };
  if (normalized) out.tool_calls = normalized;
  const callId = idOf(m.tool_call_id);
  if (callId !== undefined) out.tool_call_id = callId;
  if (typeof m.name === 'string') out.name = m.name;
  return out;
}

/** `normalizeToolCall` of a call a shape's reader wrote (`{id, name, arguments}`), or null for another form. */
function shapedCall(call: unknown): ToolCall | null {
  if (!isRecord(call)) return null;
  for (const key in call) if (!SHAPED_CALL_KEYS.has(key)) return null;
  const out: ToolCall = {};
  if (Object.hasOwn(call, 'id_is_position')) out.id_is_position = call.id_is_position;
  const id = idOf(call.id);
  if (id !== undefined) out.id = id;
  const name = str(call.name);
  if (name !== undefined) out.name = name;
  const args = call.arguments;
  if (args !== undefined && args !== null) {
    if (typeof args !== 'string') return null;
    out.arguments = args;
  }
  return out;
}
