import { describe, expect, it } from 'vitest';
import { DRIFT_OVER, drift, driftLevel, driftLevels, PROBABILITY_LEVELS, shade } from './shade';

describe('shade', () => {
  it('confident tokens are light, surprising ones strong', () => {
    expect(shade(0)).toBe(0);
    expect(shade(Math.log(0.95))).toBe(0);
    expect(shade(Math.log(0.8))).toBe(1);
    expect(shade(Math.log(0.6))).toBe(2);
    expect(shade(Math.log(0.4))).toBe(3);
    expect(shade(Math.log(0.2))).toBe(4);
    expect(shade(Math.log(0.01))).toBe(5);
    expect(shade(-1e9)).toBe(PROBABILITY_LEVELS.length - 1);
  });

  it('bucket bounds belong to the lighter level; no log-prob has no shade', () => {
    expect(shade(Math.log(0.9))).toBe(0);
    expect(shade(Math.log(0.1))).toBe(4);
    expect(shade(null)).toBeNull();
    expect(shade(Number.NaN)).toBeNull();
    expect(shade(0.3)).toBe(0);
  });
});

describe('drift', () => {
  it('is the absolute difference, or null when a side is missing', () => {
    expect(drift(-0.5, -2)).toBe(1.5);
    expect(drift(null, -2)).toBeNull();
    expect(drift(-1, null)).toBeNull();
    expect(drift(undefined, -1)).toBeNull();
  });

  it('levels: only a difference above the threshold reaches the last level, as W_LOGPROB_DRIFT counts', () => {
    expect(driftLevel(0, 1)).toBe(0);
    expect(driftLevel(0.2, 1)).toBe(1);
    expect(driftLevel(0.7, 1)).toBe(2);
    expect(driftLevel(1, 1)).toBe(2);
    expect(driftLevel(1.0001, 1)).toBe(DRIFT_OVER);
    expect(driftLevel(null, 1)).toBeNull();
    expect(driftLevels(1)[DRIFT_OVER].label).toBe('> 1 nat');
  });
});
