import { describe, expect, it } from 'vitest';
import { CLIP_EPSILON, clippedTerm, DR_GRPO_TOKEN_NORM, tokenWeight } from './objective';

describe('the clipped surrogate, on hand-computed cases (eps = 0.2)', () => {
  it('on-policy (r = 1): value A, gradient A', () => {
    expect(clippedTerm(-0.5, -0.5, 2)).toEqual({ value: 2, dLogp: 2, ratio: 1, clipped: false });
    expect(clippedTerm(-0.5, -0.5, -1)).toEqual({ value: -1, dLogp: -1, ratio: 1, clipped: false });
  });

  it('A > 0 and r above 1 + eps: clipped at 1.2 A, no gradient', () => {
    // r = e^0.5 = 1.6487; min(1.6487 * 1, 1.2 * 1) = 1.2
    const t = clippedTerm(-0.5, -1, 1);
    expect(t.ratio).toBeCloseTo(1.6487212707, 9);
    expect(t.value).toBeCloseTo(1.2, 12);
    expect(t.dLogp).toBe(0);
    expect(t.clipped).toBe(true);
  });

  it('A > 0 and r below 1 - eps: the unclipped r A is the minimum, so it still pushes up', () => {
    // r = e^-0.5 = 0.60653; min(0.60653, 0.8) = 0.60653, gradient r A
    const t = clippedTerm(-1.5, -1, 1);
    expect(t.value).toBeCloseTo(0.6065306597, 9);
    expect(t.dLogp).toBeCloseTo(0.6065306597, 9);
    expect(t.clipped).toBe(false);
  });

  it('A < 0 and r below 1 - eps: clipped at 0.8 A, no gradient', () => {
    // r = 0.60653, A = -2: min(-1.21306, -1.6) = -1.6
    const t = clippedTerm(-1.5, -1, -2);
    expect(t.value).toBeCloseTo(-1.6, 12);
    expect(t.dLogp).toBe(0);
    expect(t.clipped).toBe(true);
  });

  it('A < 0 and r above 1 + eps: the unclipped r A is the minimum, the full penalty applies', () => {
    // r = 1.6487, A = -2: min(-3.29744, -2.4) = -3.29744
    const t = clippedTerm(-0.5, -1, -2);
    expect(t.value).toBeCloseTo(-3.2974425414, 9);
    expect(t.dLogp).toBeCloseTo(-3.2974425414, 9);
    expect(t.clipped).toBe(false);
  });

  it('inside the range nothing is clipped; A = 0 gives nothing', () => {
    const t = clippedTerm(Math.log(1.1), 0, 3);
    expect(t.value).toBeCloseTo(3.3, 12);
    expect(t.dLogp).toBeCloseTo(3.3, 12);
    expect(clippedTerm(-0.5, -1, 0)).toMatchObject({ value: 0, dLogp: 0 });
    expect(CLIP_EPSILON).toBe(0.2);
  });

  it('matches a finite difference of its value wherever it is smooth', () => {
    const h = 1e-7;
    for (const [logp, old, a] of [
      [-0.3, -0.5, 1.5],
      [-2, -1, 1],
      [-0.2, -1, -1],
      [-1.05, -1, -0.7],
    ] as const) {
      const fd = (clippedTerm(logp + h, old, a).value - clippedTerm(logp - h, old, a).value) / (2 * h);
      expect(clippedTerm(logp, old, a).dLogp).toBeCloseTo(fd, 6);
    }
  });

  it('weighs tokens by 1 / length (GRPO) or by a constant (Dr. GRPO)', () => {
    expect(tokenWeight(50, false)).toBe(1 / 50);
    expect(tokenWeight(50, true)).toBe(1 / DR_GRPO_TOKEN_NORM);
    expect(tokenWeight(0, false)).toBe(0);
  });
});
