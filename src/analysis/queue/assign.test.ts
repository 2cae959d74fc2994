import { describe, expect, it } from 'vitest';
import { assignReviewers } from './assign';

const items = (n: number) => Array.from({ length: n }, (_, i) => ({ id: i }));

function load(assigned: { reviewers: string[] }[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const a of assigned) for (const r of a.reviewers) out[r] = (out[r] ?? 0) + 1;
  return out;
}

describe('assignReviewers', () => {
  it('gives each item to one reviewer, round robin, balanced to within one', () => {
    const out = assignReviewers(items(10), ['a', 'b', 'c']);
    expect(out.map((i) => i.reviewers)).toEqual([['a'], ['b'], ['c'], ['a'], ['b'], ['c'], ['a'], ['b'], ['c'], ['a']]);
    expect(load(out)).toEqual({ a: 4, b: 3, c: 3 });
    expect(out[4]).toEqual({ id: 4, reviewers: ['b'] });
  });

  it('with an overlap of K gives each item to K different reviewers, still balanced', () => {
    const out = assignReviewers(items(7), ['a', 'b', 'c', 'd'], 3);
    for (const i of out) {
      expect(i.reviewers).toHaveLength(3);
      expect(new Set(i.reviewers).size).toBe(3);
    }
    const counts = Object.values(load(out));
    expect(counts.reduce((a, b) => a + b, 0)).toBe(21);
    expect(Math.max(...counts) - Math.min(...counts)).toBeLessThanOrEqual(1);
  });

  it('an overlap of every reviewer gives everyone every item', () => {
    expect(load(assignReviewers(items(5), ['a', 'b'], 2))).toEqual({ a: 5, b: 5 });
  });

  it('refuses no reviewers, a name twice, and an overlap out of range, naming it', () => {
    expect(() => assignReviewers(items(1), [])).toThrow(/^reviewers: /);
    expect(() => assignReviewers(items(1), ['a', 'a'])).toThrow(/twice/);
    expect(() => assignReviewers(items(1), ['a', 'b'], 3)).toThrow(
      /^overlap must be a whole number from 1 to the number of reviewers \(2\)/,
    );
    expect(() => assignReviewers(items(1), ['a'], 0)).toThrow(/^overlap/);
  });
});
