import { describe, expect, it } from 'vitest';
import type { Review } from '../../format';
import { EXCLUDED, graderRater, itemTasks, type RegradeLabel, regraderRaters, reviewerLabel, reviewerRaters } from './raters';

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

describe('reviewer labels', () => {
  it('agree is the grader verdict, disagree its opposite, unsure none', () => {
    expect(reviewerLabel('agree', 'pass')).toEqual({ label: 'pass' });
    expect(reviewerLabel('agree', 'error')).toEqual({ label: 'error' });
    expect(reviewerLabel('disagree', 'pass')).toEqual({ label: 'fail' });
    expect(reviewerLabel('disagree', 'fail')).toEqual({ label: 'pass' });
    expect(reviewerLabel('disagree', 'error')).toEqual({ excluded: EXCLUDED.noOpposite });
    expect(reviewerLabel('unsure', 'pass')).toEqual({ excluded: EXCLUDED.unsure });
    expect(reviewerLabel('agree', undefined)).toEqual({ excluded: EXCLUDED.noGraderVerdict });
  });

  it('one rater per reviewer, sorted by name, exclusions counted', () => {
    const grader = graderRater([graded('r1', 'pass'), graded('r2', 'fail'), graded('r3', null)]);
    const [ann, bob] = reviewerRaters(
      [review('r1', 'agree', 'bob'), review('r1', 'disagree'), review('r2', 'unsure'), review('r3', 'agree')],
      grader,
    );
    expect(ann?.id).toBe('reviewer ann');
    expect([...(ann?.labels ?? [])]).toEqual([['r1', 'fail']]);
    expect([...(ann?.excluded ?? [])]).toEqual([
      [EXCLUDED.unsure, 1],
      [EXCLUDED.noGraderVerdict, 1],
    ]);
    expect([...(bob?.labels ?? [])]).toEqual([['r1', 'pass']]);
  });
});

describe('grader and regrader labels', () => {
  it('the grader: a record with no verdict is counted, not labelled; two different verdicts for one key are a conflict', () => {
    const g = graderRater([graded('r1', 'pass'), graded('r2', null), graded('r3', 'pass'), graded('r3', 'fail'), graded('r3', 'pass')]);
    expect([...g.labels]).toEqual([['r1', 'pass']]);
    expect([...g.excluded]).toEqual([
      [EXCLUDED.noVerdict, 1],
      [EXCLUDED.conflict, 1],
    ]);
  });

  it('regraders: one per command in order seen, errors counted by kind', () => {
    const [first, second] = regraderRaters(
      [row('r1', 'pass'), row('r2', null, 'no_artifact'), row('r3', null), row('r1', 'fail', null, 'other')],
      3,
    );
    expect(first).toMatchObject({ id: 'regrader 3', source: 'g2' });
    expect([...(first?.labels ?? [])]).toEqual([['r1', 'pass']]);
    expect([...(first?.excluded ?? [])]).toEqual([
      ['no_artifact', 1],
      [EXCLUDED.noVerdict, 1],
    ]);
    expect(second).toMatchObject({ id: 'regrader 4', source: 'other' });
  });

  it('the task of an item is the first seen', () => {
    const tasks = itemTasks(
      [graded('r1', 'pass', 'a')],
      [
        { ...row('r1', 'pass'), task_id: 'b' },
        { ...row('r9', 'pass'), task_id: 'c' },
      ],
    );
    expect([...tasks]).toEqual([
      ['r1', 'a'],
      ['r9', 'c'],
    ]);
  });
});
