import { describe, expect, it } from 'vitest';
import { type Cohort, type CohortRow, compareCheckpoints, parseCohort, printCohort } from './checkpoints';

let n = 0;
const row = (task_id: string, policy: string, reward: number | null, over: Partial<CohortRow> = {}): CohortRow => ({
  key: `r-${n++}`,
  task_id,
  group_id: `${task_id}@${policy}`,
  reward,
  termination: 'finished',
  policy,
  step: policy === 'v1' ? 10 : 20,
  file: `${policy}.jsonl`,
  ...over,
});

describe('compareCheckpoints', () => {
  const rows = [
    row('t1', 'v1', 0),
    row('t1', 'v1', 1),
    row('t1', 'v2', 1),
    row('t1', 'v2', 1),
    row('t2', 'v1', 1),
    row('t2', 'v2', 0, { termination: 'budget_exhausted' }),
    row('t2', 'v2', 1),
    row('t3', 'v1', 0.5),
    row('t3', 'v2', 0.5),
    row('t4', 'v1', 1),
    row('t5', 'v2', 0),
  ];
  const { tasks, summary } = compareCheckpoints(rows, { kind: 'policy', policy: 'v1' }, { kind: 'policy', policy: 'v2' });

  it('pairs by task and gives each task its means, pass rates, mix and verdict', () => {
    expect(tasks.map((t) => [t.task_id, t.verdict, t.delta])).toEqual([
      ['t1', 'improved', 0.5],
      ['t2', 'regressed', -0.5],
      ['t3', 'unchanged', 0],
      ['t4', 'only-a', null],
      ['t5', 'only-b', null],
    ]);
    const t2 = tasks[1];
    expect(t2?.passDelta).toBe(-0.5);
    expect(t2?.b?.mix).toEqual([
      ['budget_exhausted', 0.5],
      ['finished', 0.5],
    ]);
    expect(tasks[2]?.a?.passRate).toBe(0);
  });

  it('summarises improved, regressed and the mean change with its interval', () => {
    expect(summary).toMatchObject({ paired: 3, improved: 1, regressed: 1, unchanged: 1, onlyA: 1, onlyB: 1, meanDelta: 0 });
    const [lo, hi] = summary.interval ?? [0, 0];
    expect(lo).toBeLessThan(0);
    expect(hi).toBeGreaterThan(0);
  });

  it('weighs each group of a task once (the mean of group means)', () => {
    const r = [
      row('t', 'v1', 1, { group_id: 'g1' }),
      row('t', 'v1', 1, { group_id: 'g1' }),
      row('t', 'v1', 1, { group_id: 'g1' }),
      row('t', 'v1', 0, { group_id: 'g2' }),
    ];
    const t = compareCheckpoints(r, { kind: 'policy', policy: 'v1' }, { kind: 'policy', policy: 'v1' }).tasks[0];
    expect(t?.a?.mean).toBe(0.5);
    expect(t?.a?.representative).toBe(r[0]?.key);
  });

  it('splits by training-step range or file as well', () => {
    const bySteps = compareCheckpoints(rows, { kind: 'steps', from: 0, to: 15 }, { kind: 'steps', from: 16, to: 99 });
    expect(bySteps.summary).toMatchObject({ improved: 1, regressed: 1 });
    const byFile = compareCheckpoints(rows, { kind: 'file', file: 'v1.jsonl' }, { kind: 'file', file: 'v2.jsonl' });
    expect(byFile.summary.meanDelta).toBe(0);
  });
});

describe('cohorts in the URL', () => {
  it('print and parse round-trip; a bad value names no cohort', () => {
    const cohorts: Cohort[] = [
      { kind: 'policy', policy: 'v:3' },
      { kind: 'steps', from: 100, to: 300 },
      { kind: 'file', file: 'run/step_1.jsonl' },
    ];
    for (const c of cohorts) expect(parseCohort(printCohort(c))).toEqual(c);
    expect(parseCohort('steps:a-b')).toBeNull();
    expect(parseCohort('nothing')).toBeNull();
    expect(parseCohort(null)).toBeNull();
  });
});
