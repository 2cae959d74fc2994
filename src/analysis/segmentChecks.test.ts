import { describe, expect, it } from 'vitest';
import { buildRollout, buildSegment, FULL_METADATA, lintCodes as find } from '../testing/builders';

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
    expect(find(buildRollout({ segments: [buildSegment({ old_logprobs: [0, -0] })] }))).toEqual([]);
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

  it('W_HIT_MAX_TOKENS: generated exactly max_new_tokens', () => {
    const r = buildRollout({ sampling: { ...FULL_METADATA.sampling, max_new_tokens: 2 } });
    expect(find(r)).toEqual([{ code: 'W_HIT_MAX_TOKENS', segment: 0, step: null, severity: 'warning' }]);
  });
});
