import { describe, expect, it } from 'vitest';
import { TokenRole } from '../../analysis';
import { firstWithRole, largestDrift, tokenStats } from './tokenStats';

const { Context: C, Trained: T, Masked: M, After: A, WronglyTrained: W } = TokenRole;
const sampled = [null, null, -0.5, -0.2, null, -1.5, null, null];
const segmentOf = [-1, -1, 0, 0, -1, 1, 1, -1];
const track = {
  ids: [7, 8, 9, 10, 11, 12, 13, 14],
  roles: Uint8Array.from([W, C, T, M, C, T, T, A]),
  sampled: (i: number) => sampled[i] ?? null,
  trainer: [null, -2, -0.4, -0.2, null, -4, -1, null],
  segmentOf: (i: number) => segmentOf[i] ?? -1,
};

describe('tokenStats', () => {
  it('counts each role and sums the sampled log-probs of trained tokens that have one', () => {
    expect(tokenStats(track)).toEqual({
      total: 8,
      trained: 3,
      masked: 1,
      context: 2,
      after: 1,
      wronglyTrained: 1,
      trainedLogprobSum: -2,
      trainedWithLogprob: 2,
    });
  });
});

describe('firstWithRole', () => {
  it('finds the first position of a role', () => {
    expect(firstWithRole(track, W)).toBe(0);
    expect(firstWithRole(track, M)).toBe(3);
    expect(firstWithRole({ roles: Uint8Array.from([C]) }, W)).toBeNull();
  });
});

describe('largestDrift', () => {
  it('finds the token where trainer and sampler disagree most, overall or within a segment', () => {
    expect(largestDrift(track)).toBe(5);
    expect(largestDrift(track, 0)).toBe(2);
    expect(largestDrift(track, 7)).toBeNull();
    expect(largestDrift({ ...track, trainer: null })).toBeNull();
  });
});
