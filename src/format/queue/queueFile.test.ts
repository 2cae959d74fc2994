import { describe, expect, it } from 'vitest';
import { MAX_QUEUE_ITEMS, parseReviewQueue, QueueFileError, readReviewQueue, reviewerNameProblem } from './queueFile';

const item = (over: Record<string, unknown> = {}) => ({
  file: 'rollouts.jsonl',
  line: 3,
  rollout: 'r-1#a-1',
  rollout_id: 'r-1',
  attempt_id: 'a-1',
  task_id: 't-1',
  verdict: 'pass',
  reason: 'stratum:pass',
  reviewers: ['ana'],
  ...over,
});
const queue = (over: Record<string, unknown> = {}) => ({
  version: 1,
  created: '2026-12-05T10:00:00.000Z',
  seed: 1,
  overlap: 1,
  reviewers: ['ana', 'ben'],
  items: [item()],
  ...over,
});

function fieldOf(value: unknown): string {
  try {
    readReviewQueue(value);
  } catch (e) {
    if (e instanceof QueueFileError) return e.field;
    throw e;
  }
  return 'valid';
}

describe('readReviewQueue', () => {
  it('reads a queue and drops fields it does not know', () => {
    const q = readReviewQueue({ ...queue(), size: 5, counts: { rollouts: 44 } });
    expect(q).toEqual({
      version: 1,
      created: '2026-12-05T10:00:00.000Z',
      seed: 1,
      overlap: 1,
      reviewers: ['ana', 'ben'],
      items: [item()],
    });
  });

  it('reads a hand-made queue without seed, date or overlap', () => {
    const q = readReviewQueue({ version: 1, reviewers: ['ana'], items: [item({ attempt_id: null, verdict: null })] });
    expect([q.seed, q.created, q.overlap]).toEqual([null, null, 1]);
  });

  it('names the bad field', () => {
    expect(fieldOf([])).toBe('queue');
    expect(fieldOf(queue({ version: 2 }))).toBe('version');
    expect(() => readReviewQueue(queue({ version: 2 }))).toThrow(/newer than this Trajscope reads/);
    expect(fieldOf(queue({ reviewers: [] }))).toBe('reviewers');
    expect(fieldOf(queue({ reviewers: ['ana', 'ana'] }))).toBe('reviewers');
    expect(fieldOf(queue({ reviewers: ['ana', 7] }))).toBe('reviewers[1]');
    expect(fieldOf(queue({ overlap: 3 }))).toBe('overlap');
    expect(fieldOf(queue({ items: {} }))).toBe('items');
    expect(fieldOf(queue({ items: [item(), item({ line: 0 })] }))).toBe('items[1].line');
    expect(fieldOf(queue({ items: [item({ reason: '<b>x</b>' })] }))).toBe('items[0].reason');
    expect(fieldOf(queue({ items: [item({ reviewers: ['zed'] })] }))).toBe('items[0].reviewers[0]');
    expect(fieldOf(queue({ items: [item({ rollout_id: '' })] }))).toBe('items[0].rollout_id');
    expect(fieldOf(queue({ items: [item(), item({ line: 9 })] }))).toBe('items[1].rollout');
  });

  it('refuses more items than a page holds', () => {
    expect(fieldOf(queue({ items: Array.from({ length: MAX_QUEUE_ITEMS + 1 }, () => null) }))).toBe('items');
  });

  it('parses text, and text that is not JSON is an error of the queue', () => {
    expect(parseReviewQueue(JSON.stringify(queue())).items).toHaveLength(1);
    expect(() => parseReviewQueue('<html>')).toThrow(/^queue: not JSON/);
  });
});

describe('reviewerNameProblem', () => {
  it('accepts a name the review store keeps and refuses one it would not match', () => {
    expect(reviewerNameProblem('Ana Lima')).toBeNull();
    expect(reviewerNameProblem('')).toMatch(/empty/);
    expect(reviewerNameProblem(' ana')).toMatch(/spaces/);
    expect(reviewerNameProblem('x'.repeat(81))).toMatch(/longer than 80/);
    expect(reviewerNameProblem('a\tb')).toMatch(/control/);
  });
});
