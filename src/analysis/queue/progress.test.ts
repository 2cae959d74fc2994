import { describe, expect, it } from 'vitest';
import type { ReviewQueueItem } from '../../format';
import { itemsOf, matchQueueItems, nextUndone, queueProgress } from './progress';

const item = (rollout_id: string, line: number, reviewers: string[], file = 'a.jsonl'): ReviewQueueItem => ({
  file,
  line,
  rollout: rollout_id,
  rollout_id,
  attempt_id: null,
  task_id: 't',
  verdict: 'pass',
  reason: 'stratum:pass',
  reviewers,
});

describe('matchQueueItems', () => {
  const rows = [
    { file: 'a.jsonl', line: 1, rollout_id: 'r-1', attempt_id: null },
    { file: 'a.jsonl', line: 2, rollout_id: 'r-2', attempt_id: null },
    { file: 'b.jsonl', line: 1, rollout_id: 'r-2', attempt_id: null },
  ];
  const keys = ['r-1', 'r-2@a.jsonl:2', 'r-2@b.jsonl:1'];

  it('finds an item by its file and line, then by its key, then by its ids; -1 when the data has none', () => {
    expect(
      matchQueueItems(
        [
          item('r-2', 1, ['a'], 'b.jsonl'),
          { ...item('r-2', 99, ['a'], 'gone.jsonl'), rollout: 'r-2@b.jsonl:1' },
          item('r-1', 7, ['a'], 'renamed.jsonl'),
          item('r-9', 1, ['a']),
        ],
        rows,
        keys,
      ),
    ).toEqual([2, 2, 0, -1]);
  });

  it('finds a file the page names inside its folder (`view DIR` serves DIR/name)', () => {
    const served = rows.map((r) => ({ ...r, file: `run/${r.file}` }));
    expect(matchQueueItems([{ ...item('r-2', 1, ['a'], 'b.jsonl'), rollout: 'r-2@b.jsonl:1' }], served, ['r-1', 'x', 'y'])).toEqual([2]);
  });

  it('does not take the row at the same place when it holds another rollout', () => {
    expect(matchQueueItems([item('r-2', 1, ['a'])], rows, keys)).toEqual([1]);
  });
});

describe('progress', () => {
  const queue = {
    reviewers: ['ana', 'ben', 'cy'],
    items: [item('r-1', 1, ['ana', 'ben']), item('r-2', 2, ['ben', 'cy']), item('r-3', 3, ['cy', 'ana'])],
  };

  it('lists a reviewer’s items in queue order', () => {
    expect(itemsOf(queue, 'ana')).toEqual([0, 2]);
    expect(itemsOf(queue, 'nobody')).toEqual([]);
  });

  it('counts done and assigned per reviewer, each reviewer by their own reviews', () => {
    const done = new Set(['0:ana', '1:cy', '2:cy']);
    expect(queueProgress(queue, (i, r) => done.has(`${i}:${r}`))).toEqual([
      { reviewer: 'ana', assigned: 2, done: 1 },
      { reviewer: 'ben', assigned: 2, done: 0 },
      { reviewer: 'cy', assigned: 2, done: 2 },
    ]);
  });

  it('finds the next item not done after a position, going round, and null when all others are done', () => {
    const mine = [4, 5, 6, 7];
    const done = new Set([5, 6]);
    expect(nextUndone(mine, 0, (i) => done.has(i))).toBe(3);
    expect(nextUndone(mine, 3, (i) => done.has(i))).toBe(0);
    expect(nextUndone(mine, -1, (i) => done.has(i))).toBe(0);
    expect(nextUndone(mine, 0, (i) => i !== 4)).toBeNull();
    expect(nextUndone([], -1, () => false)).toBeNull();
  });
});
