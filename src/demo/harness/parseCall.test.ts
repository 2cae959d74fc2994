import { describe, expect, it } from 'vitest';
import { toolCallText } from '../chat/chatml';
import { parseToolCall } from './parseCall';

describe('parseToolCall', () => {
  it('reads a rendered tool call back', () => {
    expect(parseToolCall(toolCallText('edit', { path: 'a.py', old: 'x', new: 'y' }))).toEqual({
      ok: true,
      name: 'edit',
      args: { path: 'a.py', old: 'x', new: 'y' },
    });
    expect(parseToolCall(toolCallText('finish', {}))).toEqual({ ok: true, name: 'finish', args: {} });
  });

  it('rejects text that is not one well-formed call', () => {
    expect(parseToolCall('I think the bug is on line 8.<|im_end|>').ok).toBe(false);
    expect(parseToolCall('<tool_call>\n{"name": "edit", \n</tool_call><|im_end|>').ok).toBe(false);
    expect(parseToolCall('<tool_call>\n{"arguments": {}}\n</tool_call><|im_end|>').ok).toBe(false);
    expect(parseToolCall('<tool_call>\n{"name": "edit", "arguments": [1]}\n</tool_call><|im_end|>').ok).toBe(false);
  });
});
