import { describe, expect, it } from 'vitest';
import type { Finding, FindingCode } from '../../analysis';
import type { Rollout } from '../../format';
import { buildFinding } from '../../testing/builders';
import { findingTarget, tokenFindings } from './findingTargets';

const at = (code: FindingCode, segment: number | null = null): Finding => buildFinding(code, { segment });

// Segment 1's context was compacted: the packed sequence departs from it at position 2.
const record: Rollout = {
  task_id: 't',
  rollout_id: 'r',
  termination: 'finished',
  reward: 1,
  segments: [
    { input_ids: [1, 2], generated_ids: [3, 4], old_logprobs: [-0.1, -0.2] },
    { input_ids: [1, 2, 8], generated_ids: [5], old_logprobs: [-0.3] },
  ],
  training: { sequence_ids: [1, 2, 3, 4, 5], loss_mask: [1, 0, 1, 1, 1], logprobs: [null, null, -0.1, -2.5, -0.3] },
};

describe('tokenFindings', () => {
  it('keeps only the findings about tokens', () => {
    const all = [at('W_MISSING_METADATA'), at('E_TRAINING_MASK'), at('W_HIT_MAX_TOKENS', 0), at('W_ORPHAN_CALL')];
    expect(tokenFindings(all).map((f) => f.code)).toEqual(['E_TRAINING_MASK', 'W_HIT_MAX_TOKENS']);
  });
});

describe('findingTarget', () => {
  it('E_TRAINING_CONTEXT: where the training sequence departs from the segment', () => {
    expect(findingTarget(at('E_TRAINING_CONTEXT', 1), record)).toEqual({ seq: 'training', token: 2, drift: false });
  });

  it('E_TRAINING_MASK: the first wrongly trained token', () => {
    expect(findingTarget(at('E_TRAINING_MASK'), record)).toEqual({ seq: 'training', token: 0, drift: false });
  });

  it('W_LOGPROB_DRIFT: the worst token of the segment, in drift shading', () => {
    const first = { input_ids: [1, 2], generated_ids: [3, 4], old_logprobs: [-0.1, -0.2] };
    const aligned = { ...record, segments: [first, { input_ids: [1, 2, 3, 4], generated_ids: [5], old_logprobs: [-0.3] }] };
    expect(findingTarget(at('W_LOGPROB_DRIFT', 0), aligned)).toEqual({ seq: 'training', token: 3, drift: true });
  });

  it('W_HIT_MAX_TOKENS: the last generated token of the segment', () => {
    expect(findingTarget(at('W_HIT_MAX_TOKENS', 1), record)).toEqual({ seq: 1, token: 3, drift: false });
  });

  it('nothing to show without the data the finding needs', () => {
    const bare = { ...record, training: undefined };
    expect(findingTarget(at('E_TRAINING_CONTEXT', 0), bare)).toBeNull();
    expect(findingTarget(at('W_LOGPROB_DRIFT', 0), bare)).toBeNull();
    expect(findingTarget(at('W_HIT_MAX_TOKENS', 9), record)).toBeNull();
  });
});
