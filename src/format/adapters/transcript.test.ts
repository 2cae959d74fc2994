import { describe, expect, it } from 'vitest';
import { chatTurns, contentText, normalizeMessage, normalizeToolCall } from './transcript';
import { ConvertError } from './types';

describe('normalizeToolCall', () => {
  it.each([
    ['verifiers JSON string', JSON.stringify({ id: 'c1', name: 'f', arguments: '{"a": 1}' })],
    ['verifiers object', { id: 'c1', name: 'f', arguments: '{"a": 1}' }],
    ['OpenAI shape', { id: 'c1', type: 'function', function: { name: 'f', arguments: '{"a": 1}' } }],
    ['OpenAI shape as a string', JSON.stringify({ id: 'c1', type: 'function', function: { name: 'f', arguments: '{"a": 1}' } })],
  ])('reads the %s', (_, raw) => {
    expect(normalizeToolCall(raw, 'x')).toEqual({ id: 'c1', name: 'f', arguments: '{"a": 1}' });
  });

  it('writes object arguments (rLLM) as JSON text, and keeps unknown fields', () => {
    expect(normalizeToolCall({ name: 'calc', arguments: { e: '1+1' }, index: 0 }, 'x')).toEqual({
      name: 'calc',
      arguments: '{"e":"1+1"}',
      index: 0,
    });
  });

  it('rejects a string that is not JSON with the path', () => {
    expect(() => normalizeToolCall('{oops', 'completion[0].tool_calls[1]')).toThrow(
      new ConvertError('completion[0].tool_calls[1]: a tool call written as a string must be JSON'),
    );
  });
});

describe('contentText and normalizeMessage', () => {
  it('reads string, null and multi-part content', () => {
    expect(contentText('hi')).toEqual({ text: 'hi' });
    expect(contentText(null)).toEqual({ text: null });
    const parts = [
      { type: 'text', text: 'look' },
      { type: 'image_url', image_url: { url: 'data:...' } },
    ];
    expect(contentText(parts)).toEqual({ text: 'look', parts });
  });

  it('renames reasoning_content to reasoning and keeps other fields', () => {
    expect(normalizeMessage({ role: 'assistant', content: 'a', reasoning_content: 'r', agent: 'main' }, 'm')).toEqual({
      role: 'assistant',
      content: 'a',
      reasoning: 'r',
      agent: 'main',
    });
    expect(normalizeMessage({ content: 'no role' }, 'm')).toBeNull();
  });
});

describe('chatTurns', () => {
  it('turns only messages from firstGenerated on into segments and steps; a tool result without an id is no step', () => {
    const messages = [
      { role: 'user', content: 'q' },
      { role: 'assistant', content: 'few-shot' },
      { role: 'assistant', content: null, tool_calls: [{ id: 'c', name: 't' }] },
      { role: 'tool', content: 'r', tool_call_id: 'c' },
      { role: 'tool', content: 'anonymous' },
    ];
    const { segments, steps } = chatTurns(messages, 2);
    expect(segments).toEqual([{ input_ids: [], generated_ids: [], old_logprobs: [], tool_call_id: 'c', transcript_index: 2 }]);
    expect(steps).toEqual([{ tool_call_id: 'c', tool: 't', observation: { text: 'r' } }]);
  });
});
