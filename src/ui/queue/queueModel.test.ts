import { describe, expect, it } from 'vitest';
import type { ReviewQueueItem } from '../../format';
import type { Review } from '../../load';
import { itemReviews, reasonText } from './queueModel';

const item = (rollout_id: string): ReviewQueueItem => ({
  file: 'a.jsonl',
  line: 1,
  rollout: `${rollout_id}#a-1`,
  rollout_id,
  attempt_id: 'a-1',
  task_id: 't',
  verdict: 'pass',
  reason: 'stratum:pass',
  reviewers: ['ana', 'ben'],
});
const review = (rollout_id: string, reviewer: string, verdict: Review['verdict']): Review => ({
  rollout_id,
  attempt_id: 'a-1',
  verdict,
  note: '',
  reviewer,
  timestamp: '2026-12-05T10:00:00.000Z',
});

describe('itemReviews', () => {
  it('keeps every reviewer’s review of an item in its own file, the store’s latest over the log', () => {
    const byDigest = new Map([
      ['d1', [review('r-1', 'ana', 'agree'), review('r-1', 'ben', 'disagree'), review('r-2', 'ana', 'unsure')]],
      ['d2', [review('r-2', 'ben', 'agree')]],
    ]);
    const got = itemReviews(
      [item('r-1'), item('r-2'), item('r-3')],
      ['d1', 'd1', null],
      [review('r-1', 'ana', 'disagree'), undefined, undefined],
      byDigest,
    );
    expect(got.map((m) => Object.fromEntries([...m].map(([who, r]) => [who, r.verdict])))).toEqual([
      { ana: 'disagree', ben: 'disagree' },
      // Ben reviewed r-2 in another file (d2): not this item's.
      { ana: 'unsure' },
      {},
    ]);
  });
});

describe('reasonText', () => {
  it('says why in words', () => {
    expect(['disagreement', 'scanner:edited-tests,repeated-call', 'stratum:none', 'stratum:fail'].map(reasonText)).toEqual([
      'grader and regrade disagree',
      'scanner: edited-tests, repeated-call',
      'sample: no verdict',
      'sample: fail',
    ]);
  });
});
