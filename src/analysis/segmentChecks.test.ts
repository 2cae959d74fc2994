import { describe, expect, it } from 'vitest';
import type { Rollout } from '../format';
import { buildRollout, buildSegment, FULL_METADATA, lintCodes as find } from '../testing/builders';
import { rolloutFindings } from './rolloutChecks';

describe('segment checks (§7): log-probabilities, masks, token text, context rewrites, cut generations', () => {
  it('E_LOGPROB_LENGTH', () => {
    expect(find(buildRollout({ segments: [buildSegment({ old_logprobs: [-1] })] }))).toEqual([
      { code: 'E_LOGPROB_LENGTH', segment: 0, step: null, severity: 'error' },
    ]);
  });

  it('E_LOGPROB_RANGE: above 0 only; 0 itself is a certain token', () => {
    expect(find(buildRollout({ segments: [buildSegment({ old_logprobs: [0, 0.1] })] }))).toEqual([
      { code: 'E_LOGPROB_RANGE', segment: 0, step: null, severity: 'error' },
    ]);
    expect(find(buildRollout({ segments: [buildSegment({ old_logprobs: [0, -0.3] })] }))).toEqual([]);
  });

  it('W_PLACEHOLDER_LOGPROBS: all exactly 0 at temperature > 0 (2 tokens or more), unless greedy, unknown or constrained', () => {
    const zeros = buildRollout({ segments: [buildSegment({ old_logprobs: [0, -0] })] });
    expect(find(zeros)).toEqual([{ code: 'W_PLACEHOLDER_LOGPROBS', segment: 0, step: null, severity: 'warning' }]);
    const at = (sampling: Rollout['sampling']) => find({ ...zeros, sampling }).map((f) => f.code);
    expect(at({ temperature: 0 })).toEqual([]);
    expect(at({ temperature: 0.7, constrained: 'json grammar' })).toEqual([]);
    expect(at({ temperature: 0.7, constrained: false })).toEqual(['W_PLACEHOLDER_LOGPROBS']);
    // No temperature recorded: 0 may be a greedy engine's report (W_MISSING_METADATA says sampling is missing).
    expect(at(undefined)).toEqual(['W_MISSING_METADATA']);
    // One token alone may well be certain.
    expect(find(buildRollout({ segments: [buildSegment({ generated_ids: [10], old_logprobs: [0] })] }))).toEqual([]);
  });

  it('W_PLACEHOLDER_LOGPROBS: one nonzero value at all of 8 tokens or more, whatever the sampling', () => {
    const same = (n: number, lp = -1) =>
      find(
        buildRollout({
          segments: [buildSegment({ generated_ids: Array.from({ length: n }, (_, j) => 10 + j), old_logprobs: Array(n).fill(lp) })],
        }),
      ).map((f) => f.code);
    expect(same(8)).toEqual(['W_PLACEHOLDER_LOGPROBS']);
    expect(same(7)).toEqual([]);
    const varied = Array.from({ length: 8 }, (_, j) => (j === 5 ? -1.0000001 : -1));
    expect(find(buildRollout({ segments: [buildSegment({ generated_ids: varied.map((_, j) => j), old_logprobs: varied })] }))).toEqual([]);
    // A short array is E_LOGPROB_LENGTH, never also a placeholder.
    expect(
      find(
        buildRollout({
          segments: [buildSegment({ generated_ids: Array.from({ length: 9 }, (_, j) => j), old_logprobs: Array(8).fill(-1) })],
        }),
      ).map((f) => f.code),
    ).toEqual(['E_LOGPROB_LENGTH']);
  });

  it('E_MASK_LENGTH', () => {
    expect(find(buildRollout({ segments: [buildSegment({ loss_mask: [1] })] }))).toEqual([
      { code: 'E_MASK_LENGTH', segment: 0, step: null, severity: 'error' },
    ]);
  });

  it('E_TOKEN_TEXT_LENGTH for input_tokens and for generated_tokens', () => {
    expect(find(buildRollout({ segments: [buildSegment({ input_tokens: ['a'] })] })).map((f) => f.code)).toEqual(['E_TOKEN_TEXT_LENGTH']);
    expect(find(buildRollout({ segments: [buildSegment({ generated_tokens: ['a', 'b', 'c'] })] })).map((f) => f.code)).toEqual([
      'E_TOKEN_TEXT_LENGTH',
    ]);
    expect(find(buildRollout({ segments: [buildSegment({ input_tokens: ['a', 'b', 'c'], generated_tokens: ['x', 'y'] })] }))).toEqual([]);
  });

  it('W_CONTEXT_REWRITTEN: context that does not extend the previous input + generation', () => {
    const r = buildRollout({
      segments: [
        buildSegment({ input_ids: [1, 2], generated_ids: [3], old_logprobs: [-1] }),
        buildSegment({ input_ids: [1, 3, 4], tool_call_id: null }),
      ],
    });
    expect(find(r)).toEqual([{ code: 'W_CONTEXT_REWRITTEN', segment: 1, step: null, severity: 'warning' }]);
  });

  it('W_CONTEXT_REWRITTEN says why when the record carries token strings: here a retokenization', () => {
    // "foo" + "bar" sampled as two tokens; the next context holds the same text as one token.
    const r = buildRollout({
      segments: [
        buildSegment({
          input_ids: [1],
          input_tokens: ['say '],
          generated_ids: [7, 8],
          generated_tokens: ['foo', 'bar'],
          old_logprobs: [-1, -2],
        }),
        buildSegment({
          input_ids: [1, 78, 5],
          input_tokens: ['say ', 'foobar', '!'],
          generated_ids: [9],
          generated_tokens: ['.'],
          old_logprobs: [-1],
        }),
      ],
    });
    const [f] = rolloutFindings(r);
    expect(f?.code).toBe('W_CONTEXT_REWRITTEN');
    expect(f?.message).toBe(
      "segment 1: input_ids does not begin with segment 0's input_ids + generated_ids; earlier context was dropped or changed: retokenized: the text is unchanged but its token ids differ (tokens 1–2 of the earlier sequence are token 1 of this context); the trained sequence will not be the sampled one",
    );
  });

  it('W_HIT_MAX_TOKENS: generated exactly max_new_tokens', () => {
    const r = buildRollout({ sampling: { ...FULL_METADATA.sampling, max_new_tokens: 2 } });
    expect(find(r)).toEqual([{ code: 'W_HIT_MAX_TOKENS', segment: 0, step: null, severity: 'warning' }]);
  });
});
