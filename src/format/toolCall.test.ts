import { describe, expect, it } from 'vitest';
import { parseToolCall } from './toolCall';

describe('parseToolCall', () => {
  it('reads a Qwen tool call', () => {
    const text =
      '<tool_call>\n{"name": "edit", "arguments": {"path": "search.py", "old": "low = mid", "new": "low = mid + 1"}}\n</tool_call><|im_end|>';
    expect(parseToolCall(text)).toEqual({ name: 'edit', args: { path: 'search.py', old: 'low = mid', new: 'low = mid + 1' } });
  });

  it('accepts arguments as a JSON string or absent', () => {
    expect(parseToolCall('<tool_call>{"name":"f","arguments":"{\\"a\\":1}"}</tool_call>')).toEqual({ name: 'f', args: { a: 1 } });
    expect(parseToolCall('<tool_call>{"name":"finish"}</tool_call>')).toEqual({ name: 'finish', args: {} });
  });

  it('is null for text without a well-formed call', () => {
    expect(parseToolCall('The answer is 4.')).toBeNull();
    expect(parseToolCall('<tool_call>{"name": "edit", "arguments": {</tool_call>')).toBeNull();
    expect(parseToolCall('<tool_call>{"arguments": {}}</tool_call>')).toBeNull();
    expect(parseToolCall('<tool_call>{"name":"f","arguments":[1]}</tool_call>')).toBeNull();
  });
});
