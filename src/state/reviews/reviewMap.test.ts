import { describe, expect, it } from 'vitest';
import type { Review } from '../../load';
import { initialReviewerState, MAX_REVIEWER_LENGTH, setReviewer } from './reviewerStore';
import { filterByReview, mergeReviews, nextByReview, planImport, removeReview, reviewProgress, upsertReview } from './reviewMap';

function review(rollout_id: string, verdict: Review['verdict'], attempt_id: string | null = 'a-1'): Review {
  return { rollout_id, attempt_id, verdict, note: '', reviewer: 'r', timestamp: '2026-09-22T09:00:00.000Z' };
}

const KEYS = ['r-1#a-1', 'r-2#a-1', 'r-3#a-1', 'r-4#a-1', 'r-5'];
const REVIEWS = new Map([
  ['r-2#a-1', review('r-2', 'agree')],
  ['r-3#a-1', review('r-3', 'disagree')],
  ['r-5', review('r-5', 'disagree', null)],
]);

describe('filterByReview', () => {
  it('keeps unreviewed keys, in order', () => {
    expect(filterByReview(KEYS, REVIEWS, 'unreviewed')).toEqual(['r-1#a-1', 'r-4#a-1']);
  });

  it('keeps disagreed keys, in order', () => {
    expect(filterByReview(KEYS, REVIEWS, 'disagreed')).toEqual(['r-3#a-1', 'r-5']);
  });

  it('keeps nothing from an empty list and everything unreviewed without reviews', () => {
    expect(filterByReview([], REVIEWS, 'unreviewed')).toEqual([]);
    expect(filterByReview(KEYS, new Map(), 'unreviewed')).toEqual(KEYS);
    expect(filterByReview(KEYS, new Map(), 'disagreed')).toEqual([]);
  });
});

describe('nextByReview', () => {
  it('finds the next matching key after the current one, going round', () => {
    expect(nextByReview(KEYS, 1, REVIEWS, 'unreviewed')).toBe('r-4#a-1');
    expect(nextByReview(KEYS, 3, REVIEWS, 'unreviewed')).toBe('r-1#a-1');
    expect(nextByReview(KEYS, 2, REVIEWS, 'disagreed')).toBe('r-5');
    expect(nextByReview(KEYS, 4, REVIEWS, 'disagreed')).toBe('r-3#a-1');
  });

  it('never returns the current key, and null when nothing else matches', () => {
    expect(nextByReview(['r-1#a-1', 'r-2#a-1'], 0, REVIEWS, 'unreviewed')).toBeNull();
    expect(nextByReview([], 0, REVIEWS, 'unreviewed')).toBeNull();
  });

  it('starts at the first key when there is no current one', () => {
    expect(nextByReview(KEYS, -1, REVIEWS, 'unreviewed')).toBe('r-1#a-1');
  });
});

describe('review map updates', () => {
  it('upserts, removes and merges without touching the input', () => {
    const one = upsertReview(new Map(), review('r-1', 'agree'));
    const two = upsertReview(one, review('r-1', 'unsure'));
    expect(one.get('r-1#a-1')?.verdict).toBe('agree');
    expect(two.get('r-1#a-1')?.verdict).toBe('unsure');
    expect(removeReview(two, 'r-1#a-1').size).toBe(0);
    expect(removeReview(two, 'nope')).toBe(two);
    const merged = mergeReviews(two, [review('r-1', 'disagree'), review('r-9', 'agree')]);
    expect([merged.added, merged.replaced]).toEqual([1, 1]);
    expect(merged.map.get('r-1#a-1')?.verdict).toBe('disagree');
    expect(two.get('r-1#a-1')?.verdict).toBe('unsure');
  });

  it('counts progress by verdict', () => {
    expect(reviewProgress(KEYS, REVIEWS)).toEqual({ total: 5, reviewed: 3, byVerdict: { agree: 1, disagree: 2, unsure: 0 } });
  });
});

describe('planImport', () => {
  it('sends each review to the files holding its rollout and reports unknown rollouts by line', () => {
    const targets = [
      { rollout_id: 'r-1', attempt_id: 'a-1', digest: 'd1' },
      { rollout_id: 'r-2', attempt_id: null, digest: 'd2' },
      { rollout_id: 'r-1', attempt_id: 'a-1', digest: 'd2' },
      { rollout_id: 'r-3', attempt_id: 'a-1', digest: null },
    ];
    const plan = planImport(
      [
        { line: 1, review: review('r-1', 'agree') },
        { line: 2, review: review('r-2', 'disagree', null) },
        { line: 4, review: review('r-2', 'agree', 'a-1') },
        { line: 5, review: review('r-3', 'agree') },
      ],
      targets,
    );
    expect([...plan.byDigest].map(([d, rs]) => [d, rs.map((r) => r.rollout_id)])).toEqual([
      ['d1', ['r-1']],
      ['d2', ['r-1', 'r-2']],
    ]);
    expect(plan.unmatched).toEqual([
      { line: 4, message: 'no rollout r-2 · a-1 in the loaded data' },
      { line: 5, message: 'no rollout r-3 · a-1 in the loaded data' },
    ]);
  });
});

describe('setReviewer', () => {
  it('keeps the name as typed, cut to the maximum length', () => {
    expect(setReviewer(initialReviewerState, 'Mei ').reviewer).toBe('Mei ');
    expect(setReviewer(initialReviewerState, 'x'.repeat(200)).reviewer).toHaveLength(MAX_REVIEWER_LENGTH);
    expect(setReviewer(initialReviewerState, '')).toBe(initialReviewerState);
  });
});
