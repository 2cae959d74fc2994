import { describe, expect, it } from 'vitest';
import { buildRollout, buildSegment } from '../testing/builders';
import { knownPieces, TokenRole, type TokenTrack, tokenTrack } from './tokens';

/** What a track reads per position, as arrays over its positions. */
const sampled = (t: TokenTrack | null) => (t ? Array.from(t.ids, (_, i) => t.sampled(i)) : null);
const segments = (t: TokenTrack | null) => (t ? Array.from(t.ids, (_, i) => t.segmentOf(i)) : null);

const record = buildRollout({
  segments: [
    buildSegment({ input_ids: [1, 2], generated_ids: [3, 4], old_logprobs: [-0.1, -0.2], loss_mask: [1, 0], generated_tokens: ['c', 'd'] }),
    buildSegment({ input_ids: [1, 2, 3, 4, 5], generated_ids: [6], old_logprobs: [-0.3], input_tokens: ['a', 'b', 'c', 'd', 'e'] }),
  ],
  training: { sequence_ids: [1, 2, 3, 4, 5, 6, 0], loss_mask: [1, 0, 1, 0, 0, 1, 0], logprobs: [null, -1, -0.1, -0.2, -2, -0.4, null] },
});

describe('tokenTrack', () => {
  it('a segment: its context outside the loss, its generation by its own mask, with sampled log-probs', () => {
    const t = tokenTrack(record, { kind: 'segment', segment: 0 });
    expect(t?.ids).toEqual([1, 2, 3, 4]);
    expect([...(t?.roles ?? [])]).toEqual([TokenRole.Context, TokenRole.Context, TokenRole.Trained, TokenRole.Masked]);
    expect(sampled(t)).toEqual([null, null, -0.1, -0.2]);
    expect(segments(t)).toEqual([-1, -1, 0, 0]);
    expect(t?.sampled(4)).toBeNull();
    expect(t?.segmentOf(4)).toBe(-1);
    expect(tokenTrack(record, { kind: 'segment', segment: 9 })).toBeNull();
  });

  it('the training sequence: roles from the trainer mask, a wrongly trained prompt token flagged', () => {
    const t = tokenTrack(record, { kind: 'training' });
    expect([...(t?.roles ?? [])]).toEqual([
      TokenRole.WronglyTrained,
      TokenRole.Context,
      TokenRole.Trained,
      TokenRole.Masked,
      TokenRole.Context,
      TokenRole.Trained,
      TokenRole.After,
    ]);
    expect(sampled(t)).toEqual([null, null, -0.1, -0.2, null, -0.3, null]);
    expect(segments(t)).toEqual([-1, -1, 0, 0, -1, 1, -1]);
    expect(t?.trainer?.[5]).toBe(-0.4);
    expect(tokenTrack(buildRollout(), { kind: 'training' })).toBeNull();
  });

  it('a sampled log-prob is attached only where the packed token is the sampled one', () => {
    const t = tokenTrack(
      { ...record, training: { sequence_ids: [1, 2, 9, 4, 5, 6], loss_mask: [0, 0, 1, 0, 0, 1] } },
      { kind: 'training' },
    );
    expect(sampled(t)).toEqual([null, null, null, -0.2, null, -0.3]);
  });
});

describe('knownPieces', () => {
  it('collects id -> text from the token strings the record carries, skipping mismatched lengths', () => {
    expect([...knownPieces(record)].sort()).toEqual([
      [1, 'a'],
      [2, 'b'],
      [3, 'c'],
      [4, 'd'],
      [5, 'e'],
    ]);
    const bad = buildRollout({ segments: [buildSegment({ input_ids: [1, 2, 3], input_tokens: ['x'] })] });
    expect(knownPieces(bad).size).toBe(0);
  });
});
