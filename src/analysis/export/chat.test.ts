import { describe, expect, it } from 'vitest';
import type { Rollout } from '../../format';
import { buildRollout, buildSegment } from '../../testing/builders';
import type { TokenText } from '../rewrite';
import { conversationOf, templateTurns } from './chat';

/** Token text from a table of pieces (what a record's token strings give). */
function pieces(table: Record<number, string>): TokenText {
  const piece = (id: number) => table[id] ?? null;
  return {
    piece,
    text: (ids) => {
      let out = '';
      for (const id of ids) {
        const p = piece(id);
        if (p === null) return null;
        out += p;
      }
      return out;
    },
  };
}

// A two-turn ChatML conversation: system, user, the model's call, the tool's answer as a user turn, the model's finish.
const TABLE = {
  1: '<|im_start|>system\nBe careful.<|im_end|>\n',
  2: '<|im_start|>user\nFix search.py<|im_end|>\n',
  3: '<|im_start|>assistant\n',
  10: '<tool_call>read</tool_call>',
  11: '<|im_end|>',
  4: '\n<|im_start|>user\n<tool_response>\ndef search\n</tool_response><|im_end|>\n',
  12: 'done',
};
const twoTurns = (overrides: Partial<Rollout> = {}) =>
  buildRollout({
    segments: [
      buildSegment({ input_ids: [1, 2, 3], generated_ids: [10, 11], old_logprobs: [-1, -1] }),
      buildSegment({ input_ids: [1, 2, 3, 10, 11, 4, 3], generated_ids: [12, 11], old_logprobs: [-1, -1], tool_call_id: 'c-2' }),
    ],
    ...overrides,
  });

describe('templateTurns', () => {
  it('cuts ChatML and Llama 3 text into turns, and knows no other template', () => {
    expect(templateTurns('<|im_start|>user\nhi<|im_end|>\n<|im_start|>assistant\nyo')).toEqual([
      { role: 'user', content: 'hi' },
      { role: 'assistant', content: 'yo' },
    ]);
    expect(
      templateTurns(
        '<|begin_of_text|><|start_header_id|>user<|end_header_id|>\n\nhi<|eot_id|><|start_header_id|>assistant<|end_header_id|>\n\nyo<|eot_id|>',
      ),
    ).toEqual([
      { role: 'user', content: 'hi' },
      { role: 'assistant', content: 'yo' },
    ]);
    expect(templateTurns('[INST] hi [/INST] yo')).toBeNull();
  });
});

describe('conversationOf', () => {
  it('decodes the last context and generation into the turns the template wrote', () => {
    expect(conversationOf(twoTurns(), pieces(TABLE))).toEqual({
      messages: [
        { role: 'system', content: 'Be careful.' },
        { role: 'user', content: 'Fix search.py' },
        { role: 'assistant', content: '<tool_call>read</tool_call>' },
        { role: 'user', content: '<tool_response>\ndef search\n</tool_response>' },
        { role: 'assistant', content: 'done' },
      ],
    });
  });

  it('skips, saying why, a record with no text, a rewritten context or an unknown template', () => {
    expect(conversationOf(twoTurns(), null)).toEqual({ skipped: 'no_text' });
    expect(conversationOf(twoTurns(), pieces({ ...TABLE, 1: 'You are careful. ' }))).toEqual({ skipped: 'unknown_template' });
    const rewritten = twoTurns();
    const [first, second] = rewritten.segments;
    if (!first || !second) throw new Error('two segments');
    rewritten.segments = [first, { ...second, input_ids: [1, 2, 3, 4, 3] }];
    expect(conversationOf(rewritten, pieces(TABLE))).toEqual({ skipped: 'context_rewritten' });
    expect(conversationOf(buildRollout({ segments: [buildSegment({ input_ids: [1, 2], generated_ids: [] })] }), pieces(TABLE))).toEqual({
      skipped: 'no_model_turn',
    });
  });

  it('reads a converted record from its transcript, with tool calls in OpenAI form, through the last model turn', () => {
    const record = {
      ...buildRollout({ segments: [buildSegment({ input_ids: [], generated_ids: [], old_logprobs: [] })] }),
      transcript: [
        { role: 'user', content: 'Fix it' },
        { role: 'assistant', content: null, tool_calls: [{ id: 'x1', name: 'edit', arguments: '{"path":"a"}' }, { name: 'finish' }] },
        { role: 'tool', content: 'ok', tool_call_id: 'x1' },
        { role: 'assistant', content: 'Done.' },
        { role: 'user', content: 'thanks' },
      ],
    } as Rollout;
    expect(conversationOf(record, null)).toEqual({
      messages: [
        { role: 'user', content: 'Fix it' },
        {
          role: 'assistant',
          content: null,
          tool_calls: [
            { id: 'x1', type: 'function', function: { name: 'edit', arguments: '{"path":"a"}' } },
            { id: 'call_1', type: 'function', function: { name: 'finish', arguments: '{}' } },
          ],
        },
        { role: 'tool', content: 'ok', tool_call_id: 'x1' },
        { role: 'assistant', content: 'Done.' },
      ],
    });
  });
});
