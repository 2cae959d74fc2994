import { describe, expect, it } from 'vitest';
import { formatAdvantage, formatCountShort, formatLogprob, formatReward, rewardNumber } from './format';

describe('number words', () => {
  it('shows an advantage that rounds to zero as 0.000, never -0.000 (the run list and the header alike)', () => {
    expect(formatAdvantage(-0.0004)).toBe('0.000');
    expect(formatAdvantage(-0)).toBe('0.000');
    expect(formatAdvantage(-0.802)).toBe('-0.802');
    expect(formatAdvantage(1.0690449)).toBe('1.069');
  });

  it('writes rewards as recorded, to 4 decimals: with one decimal in a cell, bare in a sentence', () => {
    expect(formatReward(1)).toBe('1.0');
    expect(formatReward(0.33333)).toBe('0.3333');
    expect(rewardNumber(1)).toBe('1');
    expect(rewardNumber(0.5)).toBe('0.5');
  });

  it('writes log-probabilities with a real minus sign and no negative zero', () => {
    expect(formatLogprob(-0.564)).toBe('−0.56');
    expect(formatLogprob(-0.001)).toBe('0.00');
  });

  it('shortens a count only past what a narrow column holds', () => {
    expect([0, 1200, 99_999, 120_000, 1_000_000, 1_000_001, 1_250_000].map(formatCountShort)).toEqual([
      '0',
      '1200',
      '99999',
      '120K',
      '1M',
      '1M',
      '1.3M',
    ]);
  });
});
