import { describe, expect, it } from 'vitest';
import { formatCount, plural } from './counting';

describe('counting words', () => {
  it('separates thousands and picks singular only for exactly one', () => {
    expect(formatCount(1204)).toBe('1,204');
    expect(plural(1, 'rollout')).toBe('1 rollout');
    expect(plural(0, 'rollout')).toBe('0 rollouts');
    expect(plural(12_000, 'token')).toBe('12,000 tokens');
    expect(plural(2, 'consistency problem')).toBe('2 consistency problems');
    expect(plural(3, 'child', 'children')).toBe('3 children');
  });
});
