import { describe, expect, it } from 'vitest';
import { bootstrapKappa, confusion, kappaOfCounts, orderLabels } from './kappa';

/** Label pairs (A, B) making up a table: `[a, b, times]`. */
const pairsOf = (cells: [string, string, number][]) =>
  cells.flatMap(([a, b, times]) => Array.from({ length: times }, () => [a, b] as const));

describe("Cohen's kappa, checked against hand computations", () => {
  /*
   * Table 1 (n = 10), rows A, columns B:
   *             pass  fail  | row
   *   pass        4     1   |  5
   *   fail        2     3   |  5
   *   col         6     4
   * p_o = (4 + 3) / 10 = 0.7
   * p_e = (5·6 + 5·4) / 10² = 50 / 100 = 0.5
   * kappa = (0.7 - 0.5) / (1 - 0.5) = 0.4
   */
  const table1 = pairsOf([
    ['pass', 'pass', 4],
    ['pass', 'fail', 1],
    ['fail', 'pass', 2],
    ['fail', 'fail', 3],
  ]);

  it('table 1: the confusion matrix and kappa 0.4', () => {
    const c = confusion(table1, ['pass', 'fail']);
    expect(c.counts).toEqual([
      [4, 1],
      [2, 3],
    ]);
    expect(c.n).toBe(10);
    const k = kappaOfCounts(c.counts);
    expect(k.agreement).toBeCloseTo(0.7, 12);
    expect(k.expected).toBeCloseTo(0.5, 12);
    expect(k.kappa).toBeCloseTo(0.4, 12);
  });

  /*
   * Table 2 (n = 14), three labels:
   *             pass  fail  error | row
   *   pass        5     1     0   |  6
   *   fail        1     3     1   |  5
   *   error       0     1     2   |  3
   *   col         6     5     3
   * p_o = (5 + 3 + 2) / 14 = 10/14 = 5/7
   * p_e = (6·6 + 5·5 + 3·3) / 14² = 70/196 = 5/14
   * kappa = (5/7 - 5/14) / (1 - 5/14) = (5/14) / (9/14) = 5/9
   */
  it('table 2: three labels, kappa 5/9', () => {
    const c = confusion(
      pairsOf([
        ['pass', 'pass', 5],
        ['pass', 'fail', 1],
        ['fail', 'pass', 1],
        ['fail', 'fail', 3],
        ['fail', 'error', 1],
        ['error', 'fail', 1],
        ['error', 'error', 2],
      ]),
      ['pass', 'fail', 'error'],
    );
    expect(c.counts).toEqual([
      [5, 1, 0],
      [1, 3, 1],
      [0, 1, 2],
    ]);
    const k = kappaOfCounts(c.counts);
    expect(k.agreement).toBeCloseTo(5 / 7, 12);
    expect(k.expected).toBeCloseTo(5 / 14, 12);
    expect(k.kappa).toBeCloseTo(5 / 9, 12);
  });

  /*
   * A says pass four times; B says pass, pass, fail, fail.
   * p_o = 2/4 = 0.5; p_e = (4·2 + 0·2) / 16 = 0.5; kappa = 0: no better than chance.
   */
  it('one constant rater: kappa 0', () => {
    expect(
      kappaOfCounts([
        [2, 2],
        [0, 0],
      ]).kappa,
    ).toBe(0);
  });

  it('expected agreement 1 (both raters one same label): kappa undefined, null and not NaN; agreement 1', () => {
    const k = kappaOfCounts([[7]]);
    expect(k).toEqual({ agreement: 1, expected: 1, kappa: null });
    expect(
      kappaOfCounts([
        [0, 0],
        [0, 0],
      ]),
    ).toEqual({ agreement: null, expected: null, kappa: null });
  });

  it('refuses a label outside the table rather than dropping it', () => {
    expect(() => confusion([['pass', 'maybe']], ['pass', 'fail'])).toThrow(/"maybe"/);
  });

  it('orders verdicts pass, fail, error, then other labels by name', () => {
    expect(orderLabels(['zeta', 'error', 'fail', 'alpha', 'pass', 'fail'])).toEqual(['pass', 'fail', 'error', 'alpha', 'zeta']);
  });
});

describe('the bootstrap interval of kappa', () => {
  // Table 1 as label indices (pass 0, fail 1).
  const a = [0, 0, 0, 0, 0, 1, 1, 1, 1, 1];
  const b = [0, 0, 0, 0, 1, 0, 0, 1, 1, 1];
  const o = { seed: 1, resamples: 2000, level: 0.95 };
  const ten = (v: number[]) => Array.from({ length: 10 }, () => v).flat();

  it('is the same for the same seed and moves with another seed', () => {
    // n = 100: at n = 10 kappa takes so few values that two seeds can land on the same quantiles.
    const first = bootstrapKappa(ten(a), ten(b), 2, o);
    expect(bootstrapKappa(ten(a), ten(b), 2, o)).toEqual(first);
    const other = bootstrapKappa(ten(a), ten(b), 2, { ...o, seed: 2 });
    expect(other.interval).not.toEqual(first.interval);
  });

  it('brackets the point estimate within [-1, 1]', () => {
    const { interval } = bootstrapKappa(a, b, 2, o);
    if (!interval) throw new Error('no interval');
    const [lo, hi] = interval;
    expect(lo).toBeLessThanOrEqual(0.4);
    expect(hi).toBeGreaterThanOrEqual(0.4);
    expect(lo).toBeGreaterThanOrEqual(-1);
    expect(hi).toBeLessThanOrEqual(1);
    expect(lo).toBeLessThan(hi);
  });

  it('narrows as the items grow (the same table ten times over)', () => {
    const width = (x: ReturnType<typeof bootstrapKappa>) => (x.interval ? x.interval[1] - x.interval[0] : Number.NaN);
    expect(width(bootstrapKappa(ten(a), ten(b), 2, o))).toBeLessThan(width(bootstrapKappa(a, b, 2, o)) / 2);
  });

  it('leaves out resamples whose kappa is undefined, and says how many; none defined gives no interval', () => {
    const same = bootstrapKappa([0, 0, 0], [0, 0, 0], 1, o);
    expect(same).toEqual({ interval: null, undefinedResamples: 2000 });
    // Two items of three agree on pass: a resample of only those is undefined; others are not.
    const mixed = bootstrapKappa([0, 0, 1], [0, 0, 1], 2, o);
    expect(mixed.undefinedResamples).toBeGreaterThan(0);
    expect(mixed.undefinedResamples).toBeLessThan(2000);
    expect(mixed.interval).toEqual([1, 1]);
    expect(bootstrapKappa([], [], 2, o)).toEqual({ interval: null, undefinedResamples: 0 });
  });
});
