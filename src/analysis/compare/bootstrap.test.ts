import { describe, expect, it } from 'vitest';
import { bootstrapMeanInterval } from './bootstrap';

describe('bootstrapMeanInterval', () => {
  it('a constant sample has a zero-width interval at its value', () => {
    expect(bootstrapMeanInterval([0.25, 0.25, 0.25])).toEqual([0.25, 0.25]);
  });

  it('two values 0 and 1: resampled means are 0, 0.5 or 1 (1/4, 1/2, 1/4), so the 95% interval is [0, 1]', () => {
    expect(bootstrapMeanInterval([0, 1])).toEqual([0, 1]);
    // At 40% only the middle half remains: 0.5 carries half the mass around the median.
    expect(bootstrapMeanInterval([0, 1], { level: 0.4 })).toEqual([0.5, 0.5]);
  });

  it('matches the normal approximation on a larger sample, and is the same for the same seed', () => {
    const values = Array.from({ length: 400 }, (_, i) => (i % 4 === 0 ? 1 : 0)); // mean 0.25
    const ci = bootstrapMeanInterval(values);
    const se = Math.sqrt((0.25 * 0.75) / 400);
    expect(ci?.[0]).toBeCloseTo(0.25 - 1.96 * se, 1);
    expect(ci?.[1]).toBeCloseTo(0.25 + 1.96 * se, 1);
    expect(Math.abs((ci?.[0] ?? 0) - (0.25 - 1.96 * se))).toBeLessThan(0.01);
    expect(bootstrapMeanInterval(values)).toEqual(ci);
    expect(bootstrapMeanInterval(values, { seed: 7 })).not.toEqual(ci);
  });

  it('no values, no interval', () => {
    expect(bootstrapMeanInterval([])).toBeNull();
  });
});
