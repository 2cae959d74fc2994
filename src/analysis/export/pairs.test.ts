import { describe, expect, it } from 'vitest';
import { GroupPairs, type PairCandidate, splitPrompt } from './pairs';

const candidate = (group: string, reward: number, item: string, over: Partial<PairCandidate<string>> = {}): PairCandidate<string> => ({
  group,
  task: 't',
  policy: 'v-1',
  reward,
  item,
  ...over,
});

function pairsOf(cs: PairCandidate<string>[]) {
  const groups = new GroupPairs<string>();
  for (const c of cs) groups.add(c);
  return [...groups.pairs()].map((p) => ('skipped' in p ? [p.group, p.skipped] : [p.group, p.chosen.item, p.rejected.item]));
}

describe('GroupPairs', () => {
  it('pairs each group’s best and worst (the first read on a tie), in the order groups are first seen', () => {
    expect(
      pairsOf([
        candidate('b', 0, 'b1'),
        candidate('a', 0.5, 'a1'),
        candidate('b', 1, 'b2'),
        candidate('a', 0, 'a2'),
        candidate('b', 1, 'b3'),
        candidate('a', 0, 'a3'),
        candidate('b', 0, 'b4'),
      ]),
    ).toEqual([
      ['b', 'b2', 'b1'],
      ['a', 'a1', 'a2'],
    ]);
  });

  it('gives no pair for a group without a reward gap, of one rollout, or mixing policies or tasks', () => {
    expect(
      pairsOf([
        candidate('same', 1, 's1'),
        candidate('same', 1, 's2'),
        candidate('one', 1, 'o1'),
        candidate('policies', 1, 'p1'),
        candidate('policies', 0, 'p2', { policy: 'v-2' }),
        candidate('tasks', 1, 't1'),
        candidate('tasks', 0, 't2', { task: 'u' }),
      ]),
    ).toEqual([
      ['same', 'no_gap'],
      ['one', 'no_gap'],
      ['policies', 'mixed_policy'],
      ['tasks', 'mixed_task'],
    ]);
  });
});

describe('splitPrompt', () => {
  const same = (x: string, y: string) => x === y;
  const isModel = (m: string) => m.startsWith('A');
  it('shares the leading messages up to a model turn in both', () => {
    expect(splitPrompt(['S', 'U', 'A1', 'T1', 'A2'], ['S', 'U', 'A3'], same, isModel)).toEqual({
      prompt: ['S', 'U'],
      chosen: ['A1', 'T1', 'A2'],
      rejected: ['A3'],
    });
    // The same first call, then different tool results: each side begins at that call.
    expect(splitPrompt(['S', 'U', 'A1', 'T1', 'A2'], ['S', 'U', 'A1', 'T2', 'A3'], same, isModel)).toEqual({
      prompt: ['S', 'U'],
      chosen: ['A1', 'T1', 'A2'],
      rejected: ['A1', 'T2', 'A3'],
    });
  });

  it('is null when nothing is shared before the first model turn, or the two do not differ', () => {
    expect(splitPrompt(['S', 'A1'], ['X', 'A1'], same, isModel)).toBeNull();
    expect(splitPrompt(['S', 'A1'], ['S', 'A1'], same, isModel)).toBeNull();
  });
});
