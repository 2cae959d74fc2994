import { describe, expect, it } from 'vitest';
import type { MismatchPosition } from '../../analysis';
import { histogram, largestDeltas, MAX_RATIO_POINTS, perSegment, ratioPoints } from './mismatchModel';

const at = (pos: number, segment: number, d: number): MismatchPosition => ({
  pos,
  segment,
  index: 0,
  id: 1,
  behaviour: -1,
  trainer: -1 + d,
  d,
});

describe('mismatch panel model', () => {
  it('bins d symmetrically about 0, every value counted once, the extremes in the end bins', () => {
    const bins = histogram([-1, -0.5, 0, 0, 0.25, 1], 5);
    expect(bins.map((b) => b.count)).toEqual([1, 1, 2, 1, 1]);
    expect(bins[0]?.x0).toBe(-1);
    expect(bins[4]?.x1).toBeCloseTo(1, 12);
    expect(bins[2]?.mid).toBeCloseTo(0, 12);
    expect(histogram([0, 0, 0])).toEqual([{ x0: 0, x1: 0, mid: 0, count: 3 }]);
    expect(histogram([])).toEqual([]);
  });

  it('means per segment by hand, clipped counted at the cap', () => {
    const s = perSegment([at(3, 0, 0.7), at(4, 0, -0.1), at(9, 2, -0.4)], 2);
    expect(s).toHaveLength(2);
    expect(s[0]).toMatchObject({ segment: 0, n: 2, clipped: 1 });
    expect(s[0]?.meanD).toBeCloseTo(0.3, 12);
    expect(s[0]?.meanAbs).toBeCloseTo(0.4, 12);
    expect(s[0]?.maxAbs).toBeCloseTo(0.7, 12);
    expect(s[1]).toMatchObject({ segment: 2, n: 1, meanD: -0.4, clipped: 0 });
  });

  it('lists the largest |d| first, whatever the sign', () => {
    expect(largestDeltas([at(1, 0, 0.1), at(2, 0, -0.9), at(3, 0, 0.5)], 2).map((p) => p.pos)).toEqual([2, 3]);
  });

  it('marks ratios above the cap, and thins a long sequence keeping every clipped point and each bucket’s extreme', () => {
    const short = ratioPoints([at(1, 0, 0.8), at(2, 0, 0)], 2);
    expect(short.thinned).toBe(false);
    expect(short.points).toEqual([
      { pos: 1, r: Math.exp(0.8), clipped: true },
      { pos: 2, r: 1, clipped: false },
    ]);
    const many = Array.from({ length: MAX_RATIO_POINTS * 3 }, (_, i) => at(i, 0, i === 4321 ? -3 : i % 1000 === 7 ? 1 : 0.001));
    const { points, thinned } = ratioPoints(many, 2);
    expect(thinned).toBe(true);
    expect(points.length).toBeLessThanOrEqual(MAX_RATIO_POINTS + many.filter((p) => Math.exp(p.d) > 2).length);
    expect(points.filter((p) => p.clipped)).toHaveLength(many.filter((p) => Math.exp(p.d) > 2).length);
    expect(points.some((p) => p.pos === 4321)).toBe(true);
  });
});
