import { describe, expect, it } from 'vitest';
import { buildRollout, buildSegment } from '../testing/builders';
import { predictedFrom, segmentMaskSpans, trainingMaskSpans, trainingRoles } from './masks';

describe('loss-mask spans', () => {
  it('a segment without loss_mask trains every generated token', () => {
    expect(segmentMaskSpans(buildSegment({ generated_ids: [1, 2, 3], old_logprobs: [-1, -1, -1] }))).toEqual([
      { start: 0, end: 3, trained: true },
    ]);
  });

  it('runs of equal mask values become spans', () => {
    const s = buildSegment({ generated_ids: [1, 2, 3, 4], old_logprobs: [-1, -1, -1, -1], loss_mask: [1, 1, 0, 1] });
    expect(segmentMaskSpans(s)).toEqual([
      { start: 0, end: 2, trained: true },
      { start: 2, end: 3, trained: false },
      { start: 3, end: 4, trained: true },
    ]);
  });

  it('training sequence: spans and the role of each position', () => {
    const r = buildRollout({
      segments: [
        buildSegment({ input_ids: [1, 2], generated_ids: [3, 4], old_logprobs: [-1, -1], loss_mask: [1, 0] }),
        buildSegment({ input_ids: [1, 2, 3, 4, 5], generated_ids: [6], old_logprobs: [-1] }),
      ],
      training: { sequence_ids: [1, 2, 3, 4, 5, 6, 0], loss_mask: [0, 0, 1, 0, 0, 1, 0] },
    });
    expect(trainingMaskSpans(r)).toEqual([
      { start: 0, end: 2, trained: false },
      { start: 2, end: 3, trained: true },
      { start: 3, end: 5, trained: false },
      { start: 5, end: 6, trained: true },
      { start: 6, end: 7, trained: false },
    ]);
    expect(trainingRoles(r)).toEqual([
      { kind: 'context' },
      { kind: 'context' },
      { kind: 'generated', segment: 0, index: 0, trainable: true },
      { kind: 'generated', segment: 0, index: 1, trainable: false },
      { kind: 'context' },
      { kind: 'generated', segment: 1, index: 0, trainable: true },
      { kind: 'after' },
    ]);
    expect(trainingMaskSpans(buildRollout())).toBeNull();
  });

  it('one-position shift: position t is predicted from the logits at t-1', () => {
    expect(predictedFrom(0)).toBeNull();
    expect(predictedFrom(5)).toBe(4);
  });
});
