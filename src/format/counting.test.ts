import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatCount, formatStatistic, plural } from './counting';

describe('counting words', () => {
  it('separates thousands and picks singular only for exactly one', () => {
    expect(formatCount(1204)).toBe('1,204');
    expect(plural(1, 'rollout')).toBe('1 rollout');
    expect(plural(0, 'rollout')).toBe('0 rollouts');
    expect(plural(12_000, 'token')).toBe('12,000 tokens');
    expect(plural(2, 'consistency problem')).toBe('2 consistency problems');
    expect(plural(3, 'child', 'children')).toBe('3 children');
  });

  it('writes every number as Intl.NumberFormat("en-US") does, counts without it', () => {
    const intl = new Intl.NumberFormat('en-US');
    const edges = [0, -0, 1, -1, 999, 1000, -1000, 999_999, 1_000_000, Number.MAX_SAFE_INTEGER, -Number.MAX_SAFE_INTEGER];
    for (const n of [...edges, 2 ** 53, 1e21, 1.5, -2.25, 0.0004, Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY])
      expect(formatCount(n), String(n)).toBe(intl.format(n));
    fc.assert(
      fc.property(fc.oneof(fc.maxSafeInteger(), fc.integer(), fc.double()), (n) => {
        expect(formatCount(n)).toBe(intl.format(n));
      }),
      { numRuns: 5000 },
    );
  });
});

describe('statistics in words', () => {
  it('four significant digits, small values in exponent form, no trailing zeros, a dash for none', () => {
    expect(formatStatistic(0.12802425)).toBe('0.128');
    expect(formatStatistic(0.7)).toBe('0.7');
    expect(formatStatistic(1000)).toBe('1000');
    expect(formatStatistic(1234567)).toBe('1.235e+6');
    expect(formatStatistic(3.640896e-4)).toBe('3.64e-4');
    expect(formatStatistic(-0.0000137)).toBe('-1.37e-5');
    expect(formatStatistic(0)).toBe('0');
    expect(formatStatistic(null)).toBe('—');
    expect(formatStatistic(1.2, 3)).toBe('1.2');
  });
});
