import { parseJson } from './json';

/** A tool call read back from generated text, for display when the harness recorded no step for it. */
export interface ParsedCall {
  name: string;
  args: Record<string, unknown>;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * The tool call in a generation's text (`<tool_call>{"name": …, "arguments": …}</tool_call>`, as the
 * Qwen/Hermes templates write it), or null when the text holds none that parses.
 */
export function parseToolCall(text: string): ParsedCall | null {
  const m = /<tool_call>\s*([\s\S]*?)\s*<\/tool_call>/.exec(text);
  if (!m?.[1]) return null;
  let value: unknown;
  try {
    value = parseJson(m[1]);
  } catch {
    return null;
  }
  if (!isRecord(value) || typeof value.name !== 'string') return null;
  let args: unknown = value.arguments ?? {};
  if (typeof args === 'string') {
    try {
      args = parseJson(args);
    } catch {
      return null;
    }
  }
  return isRecord(args) ? { name: value.name, args } : null;
}
