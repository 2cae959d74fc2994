import { describe, expect, it } from 'vitest';
import { deriveSeed, mulberry32 } from './rng';

describe('seeds', () => {
  it('derives different seeds for different base seeds and labels', () => {
    const seeds = new Set<number>();
    for (let base = 0; base < 20; base++) for (const label of ['r-g1-01', 'r-g1-02', 'r-article']) seeds.add(deriveSeed(base, label));
    expect(seeds.size).toBe(60);
    expect(deriveSeed(7, 'r-g1-01')).toBe(deriveSeed(7, 'r-g1-01'));
  });

  it('repeats a stream for a seed', () => {
    const a = mulberry32(5);
    const b = mulberry32(5);
    expect([a(), a(), a()]).toEqual([b(), b(), b()]);
  });
});
