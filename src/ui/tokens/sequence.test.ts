import { describe, expect, it } from 'vitest';
import type { Rollout, Segment } from '../../format';
import { resolveSequence, sequenceOptions, toSource } from './sequence';

const seg = (n: number): Segment => ({ input_ids: [1, 2], generated_ids: Array(n).fill(5), old_logprobs: Array(n).fill(-1) });
const base: Rollout = { task_id: 't', rollout_id: 'r', segments: [seg(1), seg(2)], termination: 'finished', reward: 1 };
const withTraining: Rollout = { ...base, training: { sequence_ids: [1, 2, 5, 9, 5, 5], loss_mask: [0, 0, 1, 0, 1, 1] } };

describe('resolveSequence', () => {
  it('defaults to the training sequence, else the last segment', () => {
    expect(resolveSequence(withTraining, null)).toBe('training');
    expect(resolveSequence(base, null)).toBe(1);
    expect(resolveSequence({ ...base, segments: [] }, null)).toBeNull();
  });

  it('keeps a valid choice and replaces one the record does not have', () => {
    expect(resolveSequence(withTraining, 0)).toBe(0);
    expect(resolveSequence(withTraining, 7)).toBe('training');
    expect(resolveSequence(base, 'training')).toBe(1);
  });
});

describe('sequenceOptions', () => {
  it('lists the training sequence first, then each segment with its length', () => {
    expect(sequenceOptions(withTraining).map((o) => o.label)).toEqual([
      'Training sequence (6 tokens)',
      'Segment 0 (3 tokens)',
      'Segment 1 (4 tokens)',
    ]);
    expect(toSource(1)).toEqual({ kind: 'segment', segment: 1 });
    expect(toSource('training')).toEqual({ kind: 'training' });
  });
});
