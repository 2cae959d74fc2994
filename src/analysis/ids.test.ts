import { describe, expect, it } from 'vitest';
import { commonPrefix, firstMismatch, sharedPrefixes, startsWithPair } from './ids';

describe('id helpers', () => {
  it('sharedPrefixes: how much of each context extends the previous input + generation, computed once', () => {
    const segments = [
      { input_ids: [1, 2], generated_ids: [3] },
      { input_ids: [1, 2, 3, 4], generated_ids: [5] },
      { input_ids: [1, 2, 9, 4, 5, 6], generated_ids: [] },
      { input_ids: [], generated_ids: [7] },
    ];
    const p = sharedPrefixes(segments);
    expect(p).toEqual([0, 3, 2, 0]);
    expect(sharedPrefixes(segments)).toBe(p);
  });

  it('prefix and pair checks', () => {
    expect(commonPrefix([1, 2, 3], [1, 2, 4])).toBe(2);
    expect(startsWithPair([1, 2, 3, 4], [1, 2], [3])).toBe(true);
    expect(startsWithPair([1, 2], [1, 2], [3])).toBe(false);
    expect(firstMismatch([1, 2, 3], [1, 2], [4])).toBe(2);
    expect(firstMismatch([1, 2, 3], [1, 2], [3])).toBeNull();
  });
});
