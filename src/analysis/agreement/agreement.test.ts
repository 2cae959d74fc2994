import { describe, expect, it } from 'vitest';
import type { Review } from '../../format';
import { agreement } from './agreement';
import { EXCLUDED, graderRater, itemTasks, type RegradeLabel, regraderRaters, reviewerRaters } from './raters';

const graded = (id: string, verdict: string | null, task = 't1') => ({ rollout_id: id, attempt_id: null, task_id: task, verdict });
const review = (id: string, verdict: Review['verdict'], reviewer = 'ann'): Review => ({
  rollout_id: id,
  attempt_id: null,
  verdict,
  note: '',
  reviewer,
  timestamp: '2026-12-01T00:00:00Z',
});
const row = (id: string, new_verdict: string | null, error_kind: string | null = null, grader = 'g2'): RegradeLabel => ({
  rollout_id: id,
  attempt_id: null,
  task_id: 't1',
  grader,
  new_verdict,
  error_kind,
});

describe('agreement over raters', () => {
  /*
   * Task t1: grader and regrader on r1..r5          Task t2: r6..r8
   *   grader:   pass pass fail fail pass              pass pass pass
   *   regrader: pass fail fail fail pass              pass pass pass
   * Overall (n = 8), rows grader, columns regrader:
   *             pass  fail | row
   *   pass        5     1  |  6
   *   fail        0     2  |  2
   *   col         5     3
   * p_o = 7/8; p_e = (6·5 + 2·3) / 64 = 36/64; kappa = (56 - 36) / (64 - 36) = 20/28 = 5/7
   * t1 (n = 5): [[2, 1], [0, 2]]; p_o = 4/5; p_e = (3·2 + 2·3)/25 = 12/25; kappa = (20 - 12)/(25 - 12) = 8/13
   * t2 (n = 3): all pass from both: expected agreement 1, kappa undefined.
   */
  const verdicts = ['pass', 'pass', 'fail', 'fail', 'pass', 'pass', 'pass', 'pass'];
  const regraded = ['pass', 'fail', 'fail', 'fail', 'pass', 'pass', 'pass', 'pass'];
  const records = verdicts.map((v, i) => graded(`r${i + 1}`, v, i < 5 ? 't1' : 't2'));
  const grader = graderRater([...records, graded('r9', null)]);
  const regrader = regraderRaters([...regraded.map((v, i) => row(`r${i + 1}`, v)), row('r10', 'pass')]);
  const tasks = itemTasks(records);
  const report = agreement([grader, ...regrader], tasks, { seed: 7, resamples: 500 });

  it('equals the hand computation, overall and per task', () => {
    const [pair] = report.pairs;
    expect(pair).toMatchObject({ a: 'grader', b: 'regrader 1', onlyA: 0, onlyB: 1 });
    expect(pair?.overall.labels).toEqual(['pass', 'fail']);
    expect(pair?.overall.counts).toEqual([
      [5, 1],
      [0, 2],
    ]);
    expect(pair?.overall.n).toBe(8);
    expect(pair?.overall.agreement).toBeCloseTo(7 / 8, 12);
    expect(pair?.overall.kappa).toBeCloseTo(5 / 7, 12);
    expect(pair?.disagreements).toEqual([{ key: 'r2', task: 't1', a: 'pass', b: 'fail' }]);
    const [t1, t2] = pair?.tasks ?? [];
    expect(t1?.task).toBe('t1');
    expect(t1?.stats.counts).toEqual([
      [2, 1],
      [0, 2],
    ]);
    expect(t1?.stats.kappa).toBeCloseTo(8 / 13, 12);
    expect(t2).toMatchObject({ task: 't2', stats: { n: 3, agreement: 1, kappa: null, kappaUndefined: true, interval: null } });
    expect(t2?.stats.counts).toEqual([
      [3, 0],
      [0, 0],
    ]);
  });

  it('names the raters and what each left out; the interval is seeded', () => {
    expect(report.raters).toEqual([
      { id: 'grader', kind: 'grader', source: '', labelled: 8, excluded: [[EXCLUDED.noVerdict, 1]] },
      { id: 'regrader 1', kind: 'regrader', source: 'g2', labelled: 9, excluded: [] },
    ]);
    expect(report.bootstrap).toEqual({ seed: 7, resamples: 500, level: 0.95 });
    const again = agreement([grader, ...regrader], tasks, { seed: 7, resamples: 500 });
    expect(again.pairs[0]?.overall.interval).toEqual(report.pairs[0]?.overall.interval);
  });

  it('makes every pair of three raters', () => {
    const ann = reviewerRaters([review('r1', 'agree')], grader);
    const three = agreement([grader, ...regrader, ...ann], tasks, { resamples: 10 });
    expect(three.pairs.map((p) => `${p.a} x ${p.b}`)).toEqual([
      'grader x regrader 1',
      'grader x reviewer ann',
      'regrader 1 x reviewer ann',
    ]);
  });
});
