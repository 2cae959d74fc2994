import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Segment } from '../format';
import { buildRollout, buildSegment } from '../testing/builders';
import { type PositionRole, predictedFrom, segmentMask, segmentMaskSpans, trainingMaskSpans, trainingRoles } from './masks';

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

/** The roles by their definition, one object a position (trainingRoles before it was made of arrays). */
function rolesByDefinition(segments: readonly Segment[], n: number): PositionRole[] {
  const roles: PositionRole[] = new Array(n);
  let lastEnd = 0;
  segments.forEach((seg, si) => {
    const mask = segmentMask(seg);
    const start = seg.input_ids.length;
    for (let j = 0; j < seg.generated_ids.length && start + j < n; j++) {
      const trainable = mask[j] === 1;
      const earlier = roles[start + j];
      if (!trainable && earlier?.kind === 'generated' && earlier.trainable) continue;
      roles[start + j] = { kind: 'generated', segment: si, index: j, trainable };
    }
    lastEnd = Math.max(lastEnd, start + seg.generated_ids.length);
  });
  for (let i = 0; i < n; i++) roles[i] ??= i < lastEnd ? { kind: 'context' } : { kind: 'after' };
  return roles;
}

describe('trainingRoles, made of arrays', () => {
  it('gives every position the role its definition gives, for overlapping segments, short or absent masks', () => {
    const segment = fc
      .record({
        input: fc.nat(12),
        generated: fc.nat(6),
        mask: fc.option(fc.array(fc.constantFrom<0 | 1>(0, 1), { maxLength: 7 }), { nil: undefined }),
      })
      .map(({ input, generated, mask }) =>
        buildSegment({
          input_ids: Array.from({ length: input }, (_, i) => i),
          generated_ids: Array.from({ length: generated }, (_, j) => 100 + j),
          old_logprobs: Array.from({ length: generated }, () => -1),
          ...(mask === undefined ? {} : { loss_mask: mask }),
        }),
      );
    fc.assert(
      fc.property(fc.array(segment, { maxLength: 4 }), fc.nat(20), (segments, n) => {
        const r = buildRollout({
          segments,
          training: { sequence_ids: Array.from({ length: n }, (_, i) => i), loss_mask: new Array(n).fill(0) },
        });
        expect(trainingRoles(r)).toEqual(rolesByDefinition(segments, n));
      }),
      { numRuns: 300 },
    );
  });
});
