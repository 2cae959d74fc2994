import { describe, expect, it } from 'vitest';
import type { CohortRow } from '../../analysis';
import { cohortChoices, defaultCohorts, mixChange, wholePercents } from './cohortChoices';

const row = (policy: string | null, file: string, step: number | null): CohortRow => ({
  key: 'k',
  task_id: 't',
  group_id: 'g',
  reward: 1,
  termination: 'finished',
  policy,
  file,
  step,
});

describe('cohort choices', () => {
  it('offers first vs last policy, else first vs last file, else the two halves of the steps', () => {
    expect(defaultCohorts(cohortChoices([row('v1', 'a', 1), row('v2', 'a', 2), row('v3', 'b', 3)]))).toEqual([
      { kind: 'policy', policy: 'v1' },
      { kind: 'policy', policy: 'v3' },
    ]);
    expect(defaultCohorts(cohortChoices([row(null, 'a', 1), row(null, 'b', 2)]))?.map((c) => c.kind)).toEqual(['file', 'file']);
    expect(defaultCohorts(cohortChoices([row(null, 'a', 0), row(null, 'a', 9)]))).toEqual([
      { kind: 'steps', from: 0, to: 4 },
      { kind: 'steps', from: 5, to: 9 },
    ]);
    expect(defaultCohorts(cohortChoices([row(null, 'a', null)]))).toBeNull();
  });

  it('words a termination mix change, leaving out what did not move', () => {
    expect(
      mixChange(
        [['finished', 1]],
        [
          ['finished', 0.5],
          ['budget_exhausted', 0.5],
        ],
      ),
    ).toBe('finished 100% → 50%, budget_exhausted 0% → 50%');
    expect(mixChange([['finished', 1]], [['finished', 1]])).toBe('');
  });

  it('words shares as whole percents that add up to 100 (issue 31: 88% + 13%)', () => {
    expect(
      mixChange(
        [
          ['finished', 7 / 8],
          ['infra_failure', 1 / 8],
        ],
        [['finished', 1]],
      ),
    ).toBe('finished 88% → 100%, infra_failure 12% → 0%');
    const thirds = wholePercents(
      new Map([
        ['a', 1 / 3],
        ['b', 1 / 3],
        ['c', 1 / 3],
      ]),
    );
    expect([...thirds.values()]).toEqual([34, 33, 33]);
    for (let n = 1; n <= 40; n++) {
      const shares = new Map(Array.from({ length: n }, (_, i) => [`t${i}`, (i + 1) / ((n * (n + 1)) / 2)] as [string, number]));
      expect([...wholePercents(shares).values()].reduce((s, x) => s + x, 0)).toBe(100);
    }
  });
});
