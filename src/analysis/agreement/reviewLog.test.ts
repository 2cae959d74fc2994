import { describe, expect, it } from 'vitest';
import type { Review } from '../../format';
import { foldReviewsByReviewer, type ReviewerLogEntry } from './reviewLog';

const put = (rollout_id: string, reviewer: string, verdict: Review['verdict'], attempt_id: string | null = null): ReviewerLogEntry => ({
  op: 'put',
  digest: 'd1',
  review: { rollout_id, attempt_id, verdict, note: '', reviewer, timestamp: '2026-12-01T00:00:00Z' },
});
const remove = (rollout_id: string, reviewer: string, attempt_id: string | null = null): ReviewerLogEntry => ({
  op: 'remove',
  digest: 'd1',
  review: { rollout_id, attempt_id, reviewer },
});

describe('folding the shared review log', () => {
  it('keeps the last entry per rollout, attempt and reviewer; a remove deletes', () => {
    const standing = foldReviewsByReviewer([
      put('r1', 'ann', 'agree'),
      put('r1', 'bob', 'agree'),
      put('r1', 'ann', 'disagree'),
      put('r2', 'ann', 'agree'),
      remove('r2', 'ann'),
      put('r3', 'ann', 'agree', 'a-1'),
      put('r3', 'ann', 'unsure', 'a-2'),
      remove('r9', 'ann'),
    ]);
    expect(standing.map((r) => [r.rollout_id, r.attempt_id, r.reviewer, r.verdict])).toEqual([
      ['r1', null, 'bob', 'agree'],
      ['r1', null, 'ann', 'disagree'],
      ['r3', 'a-1', 'ann', 'agree'],
      ['r3', 'a-2', 'ann', 'unsure'],
    ]);
  });

  it('a put after a remove stands again', () => {
    expect(
      foldReviewsByReviewer([put('r1', 'ann', 'agree'), remove('r1', 'ann'), put('r1', 'ann', 'unsure')]).map((r) => r.verdict),
    ).toEqual(['unsure']);
  });
});
