import { describe, expect, it } from 'vitest';
import { buildRollout, buildSegment } from '../testing/builders';
import { mismatchDeltas, mismatchStats, rolloutMismatch } from './mismatch';

/*
 * One segment: context [1, 2, 3], generated [10, 11, 12] at training positions 3, 4, 5.
 * Behaviour log-probs -1, -0.5, -2; trainer -0.3 (d = 0.7), -0.5 (d = 0), -2.4 (d = -0.4).
 */
const seg = buildSegment({ input_ids: [1, 2, 3], generated_ids: [10, 11, 12], old_logprobs: [-1, -0.5, -2] });
const record = buildRollout({
  segments: [seg],
  training: { sequence_ids: [1, 2, 3, 10, 11, 12], loss_mask: [0, 0, 0, 1, 1, 1], logprobs: [null, null, null, -0.3, -0.5, -2.4] },
});

describe('training-inference mismatch (§10)', () => {
  it('takes d = trainer - behaviour at each trained generated position', () => {
    const d = mismatchDeltas(record);
    expect(d).toHaveLength(3);
    expect(d[0]).toBeCloseTo(0.7, 12);
    expect(d[1]).toBe(0);
    expect(d[2]).toBeCloseTo(-0.4, 12);
  });

  it('computes n, mean and max |d|, the ratio mean, the clipped fraction and k3 by hand', () => {
    const m = mismatchStats([0.7, 0, -0.4]);
    expect(m.n).toBe(3);
    expect(m.mean_abs).toBeCloseTo(1.1 / 3, 12);
    expect(m.max_abs).toBeCloseTo(0.7, 12);
    // r = e^0.7 = 2.013753, e^0 = 1, e^-0.4 = 0.670320
    expect(m.ratio_mean).toBeCloseTo((2.0137527074704766 + 1 + 0.6703200460356393) / 3, 12);
    // only e^0.7 > 2
    expect(m.ratio_clip_frac).toBeCloseTo(1 / 3, 12);
    // k3 = mean(r - 1 - d): (0.3137527 + 0 + 0.0703200) / 3
    expect(m.kl_k3).toBeCloseTo((2.0137527074704766 - 1.7 + 0 + 0.6703200460356393 - 0.6) / 3, 12);
    expect(mismatchStats([0.7, 0, -0.4], 3).ratio_clip_frac).toBe(0);
  });

  it('leaves out positions with mask 0, a null trainer value, another token, or no behaviour value', () => {
    const skipped = buildRollout({
      segments: [{ ...seg, old_logprobs: [-1, -0.5] }],
      training: { sequence_ids: [1, 2, 3, 10, 99, 12], loss_mask: [0, 0, 0, 0, 1, 1], logprobs: [null, null, null, -0.3, -0.5, -2.4] },
    });
    // position 3: mask 0; 4: token 99 is not 11; 5: no old_logprobs[2].
    expect(mismatchDeltas(skipped)).toEqual([]);
    expect(rolloutMismatch(skipped)).toEqual({ n: 0, mean_abs: null, max_abs: null, ratio_mean: null, ratio_clip_frac: null, kl_k3: null });
    const nullTrainer = buildRollout({
      segments: [seg],
      training: { sequence_ids: [1, 2, 3, 10, 11, 12], loss_mask: [0, 0, 0, 1, 1, 1], logprobs: [null, null, null, null, -0.5, null] },
    });
    expect(mismatchDeltas(nullTrainer)).toEqual([0]);
  });

  it('is null without a training record, and zero where the trainer agrees exactly', () => {
    expect(rolloutMismatch(buildRollout({ segments: [seg] }))).toBeNull();
    const same = buildRollout({
      segments: [seg],
      training: { sequence_ids: [1, 2, 3, 10, 11, 12], loss_mask: [0, 0, 0, 1, 1, 1], logprobs: [null, null, null, -1, -0.5, -2] },
    });
    expect(rolloutMismatch(same)).toEqual({ n: 3, mean_abs: 0, max_abs: 0, ratio_mean: 1, ratio_clip_frac: 0, kl_k3: 0 });
  });
});
