import { describe, expect, it } from 'vitest';
import { buildRollout, buildSegment } from '../../testing/builders';
import { trainedCalls } from './positions';

/*
 * Two generations: [10, 11] after context [1, 2, 3]; the tool result [4, 5]; then [12] after
 * [1, 2, 3, 10, 11, 4, 5]. Packed: positions 0..7 = 1 2 3 10 11 4 5 12, generated at 3, 4 and 7.
 */
const segments = [
  buildSegment({ input_ids: [1, 2, 3], generated_ids: [10, 11], old_logprobs: [-0.1, -0.2], tool_call_id: 'c-1' }),
  buildSegment({ input_ids: [1, 2, 3, 10, 11, 4, 5], generated_ids: [12], old_logprobs: [-0.3], tool_call_id: 'c-2' }),
];
const seq = [1, 2, 3, 10, 11, 4, 5, 12];
const record = buildRollout({ segments });

describe('what the trainer trains: the loss mask and the one-position shift', () => {
  it('takes exactly the positions with loss_mask 1; each is predicted from the position before it', () => {
    const calls = trainedCalls(record, { sequence_ids: seq, loss_mask: [0, 0, 0, 1, 1, 0, 0, 1] });
    expect(calls).toEqual([
      {
        segment: 0,
        context: [1, 2, 3],
        tokens: [10, 11],
        trained: [
          { position: 3, from: 2, index: 0, old: -0.1 },
          { position: 4, from: 3, index: 1, old: -0.2 },
        ],
      },
      { segment: 1, context: [1, 2, 3, 10, 11, 4, 5], tokens: [12], trained: [{ position: 7, from: 6, index: 0, old: -0.3 }] },
    ]);
    // The context of a call ends at the position that predicts its first token.
    for (const c of calls) expect(c.context.length - 1).toBe(c.trained[0]?.from);
  });

  it('leaves a generated token with mask 0 out of the loss, but keeps it in the call it conditions', () => {
    const calls = trainedCalls(record, { sequence_ids: seq, loss_mask: [0, 0, 0, 0, 1, 0, 0, 0] });
    expect(calls).toEqual([{ segment: 0, context: [1, 2, 3], tokens: [10, 11], trained: [{ position: 4, from: 3, index: 1, old: -0.2 }] }]);
  });

  it('refuses a 1 on a prompt or observation token, and on position 0, which nothing predicts', () => {
    expect(() => trainedCalls(record, { sequence_ids: seq, loss_mask: [0, 0, 0, 1, 1, 1, 0, 1] })).toThrow(
      /position 5, which the model did not generate/,
    );
    const fromNothing = buildRollout({ segments: [buildSegment({ input_ids: [], generated_ids: [10], old_logprobs: [-1] })] });
    expect(() => trainedCalls(fromNothing, { sequence_ids: [10], loss_mask: [1] })).toThrow(/position 0, which nothing predicts/);
  });

  it('refuses a packed sequence that is not the context the model saw', () => {
    const other = [1, 2, 9, 10, 11, 4, 5, 12];
    expect(() => trainedCalls(record, { sequence_ids: other, loss_mask: [0, 0, 0, 1, 1, 0, 0, 1] })).toThrow(/segment 0 is not where/);
  });
});
