import { describe, expect, it } from 'vitest';
import { type Pass, runPass } from './passes';

function* counting(n: number): Pass<number> {
  let sum = 0;
  for (let i = 0; i < n; i++) {
    sum += i;
    if (i % 10 === 9) yield i / n;
  }
  return sum;
}

describe('runPass', () => {
  it('runs a pass through every yield to its result', () => {
    expect(runPass(counting(100))).toBe(4950);
    expect(runPass(counting(0))).toBe(0);
  });
});
