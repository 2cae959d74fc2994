import { IM_END } from '../chat/chatml';

export type ParsedCall = { ok: true; name: string; args: Record<string, unknown> } | { ok: false; reason: string };

/** Parses generated text as one Qwen3 tool call: `<tool_call>\n{"name": ..., "arguments": {...}}\n</tool_call><|im_end|>`. */
export function parseToolCall(text: string): ParsedCall {
  const body = text.endsWith(IM_END) ? text.slice(0, -IM_END.length) : text;
  const m = /^<tool_call>\n([\s\S]*)\n<\/tool_call>$/.exec(body);
  if (!m) return { ok: false, reason: 'the generation is not one <tool_call> block' };
  let v: unknown;
  try {
    v = JSON.parse(m[1] ?? '');
  } catch {
    return { ok: false, reason: 'the tool call is not valid JSON' };
  }
  if (typeof v !== 'object' || v === null || !('name' in v) || typeof v.name !== 'string') {
    return { ok: false, reason: 'the tool call has no "name"' };
  }
  const args = 'arguments' in v ? v.arguments : {};
  if (typeof args !== 'object' || args === null || Array.isArray(args)) return { ok: false, reason: '"arguments" is not an object' };
  return { ok: true, name: v.name, args: { ...args } };
}
