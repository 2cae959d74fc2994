import type { MessageShape } from '../mapping/shapes';
import { isRecord, type Json } from '../read';

/*
 * Where a record keeps its conversation, whatever the tool: every array of message-like objects, nested up
 * to MAX_DEPTH, is a candidate; each is given the shape most of its first elements have (docs/formats.md,
 * "Read by shape"), and the longest one with tool calls wins.
 */

const MAX_DEPTH = 5;
/** Elements looked at to tell an array's shape: enough to see a call and its result, cheap on long lists. */
const SAMPLE = 12;

const CHAT_ROLES = new Set(['system', 'user', 'assistant', 'tool', 'function', 'developer']);
const LANGCHAIN_TYPES = new Set([
  'human',
  'ai',
  'tool',
  'system',
  'HumanMessage',
  'AIMessage',
  'ToolMessage',
  'SystemMessage',
  'AIMessageChunk',
]);
const RESPONSES_TYPES = new Set(['message', 'function_call', 'function_call_output', 'reasoning']);

/** The shape one element has, and whether it carries a tool call or result; null when it is no message. */
function elementShape(v: unknown): { shape: MessageShape; tools: boolean } | null {
  if (Array.isArray(v)) {
    // LangChain's intermediate_steps: [AgentAction, observation].
    return v.length === 2 && isRecord(v[0]) && typeof v[0].tool === 'string' ? { shape: 'steps', tools: true } : null;
  }
  if (!isRecord(v)) return null;
  if (typeof v.type === 'string' && RESPONSES_TYPES.has(v.type) && (v.type !== 'message' || typeof v.role === 'string'))
    return { shape: 'responses', tools: v.type === 'function_call' || v.type === 'function_call_output' };
  if (typeof v.role === 'string') {
    if (v.role === 'tool-call' || v.role === 'tool-response') return { shape: 'smolagents', tools: true };
    if (Array.isArray(v.parts))
      return { shape: 'gemini', tools: v.parts.some((p) => isRecord(p) && ('functionCall' in p || 'functionResponse' in p)) };
    if (Array.isArray(v.content) && v.content.some((b) => isRecord(b) && (b.type === 'tool_use' || b.type === 'tool_result')))
      return { shape: 'anthropic', tools: true };
    if (CHAT_ROLES.has(v.role) || 'content' in v) return { shape: 'chat', tools: Array.isArray(v.tool_calls) || v.role === 'tool' };
    return null;
  }
  if (typeof v.from === 'string' && 'value' in v)
    return { shape: 'sharegpt', tools: v.from === 'function_call' || v.from === 'observation' };
  if (typeof v.type === 'string' && LANGCHAIN_TYPES.has(v.type) && ('content' in v || isRecord(v.data)))
    return { shape: 'langchain', tools: v.type === 'tool' || Array.isArray(v.tool_calls) };
  const action = v.action ?? v.tool_call;
  if ((isRecord(action) || typeof action === 'string') && ('observation' in v || 'output' in v || 'result' in v))
    return { shape: 'steps', tools: isRecord(action) };
  if (typeof v.tool === 'string' && ('tool_input' in v || 'output' in v || 'observation' in v)) return { shape: 'steps', tools: true };
  return null;
}

export interface Conversation {
  /** Dot path to the array, as a field mapping writes it (`trajectory.messages`). */
  path: string;
  shape: MessageShape;
  length: number;
  tools: boolean;
}

/** The shape of an array when most of its first elements are messages of one shape. */
export function arrayShape(items: readonly unknown[]): Omit<Conversation, 'path'> | null {
  const sample = items.slice(0, SAMPLE).map(elementShape);
  const votes = new Map<MessageShape, number>();
  let tools = false;
  for (const s of sample) {
    if (!s) continue;
    votes.set(s.shape, (votes.get(s.shape) ?? 0) + 1);
    tools ||= s.tools;
  }
  // Plain chat messages mix with Anthropic blocks and smolagents roles in one list: one family, richest shape.
  const family = (votes.get('chat') ?? 0) + (votes.get('anthropic') ?? 0) + (votes.get('smolagents') ?? 0);
  const [best] = [...votes].sort((a, b) => b[1] - a[1]);
  let shape: MessageShape;
  if (family * 2 > sample.length) shape = votes.has('anthropic') ? 'anthropic' : votes.has('smolagents') ? 'smolagents' : 'chat';
  else if (best && best[1] * 2 > sample.length) shape = best[0];
  else return null;
  return { shape, length: items.length, tools };
}

/** Every message array in the value, with its path; keys are walked in order, to MAX_DEPTH. */
function conversations(value: Json): Conversation[] {
  const found: Conversation[] = [];
  const walk = (v: unknown, path: string[], depth: number) => {
    if (depth > MAX_DEPTH) return;
    if (Array.isArray(v)) {
      const shape = v.length > 0 ? arrayShape(v) : null;
      if (shape && path.length > 0) found.push({ path: path.join('.'), ...shape });
      // An array of records (a batch) is not walked into: each record is read on its own.
      return;
    }
    if (!isRecord(v)) return;
    for (const [key, child] of Object.entries(v)) if (!key.includes('.')) walk(child, [...path, key], depth + 1);
  };
  walk(value, [], 0);
  return found;
}

/** The record's conversation: the one with tool calls first, then the longest, then the shallowest. */
export function findConversation(value: Json): Conversation | null {
  const all = conversations(value);
  all.sort((a, b) => Number(b.tools) - Number(a.tools) || b.length - a.length || a.path.split('.').length - b.path.split('.').length);
  return all[0] ?? null;
}
