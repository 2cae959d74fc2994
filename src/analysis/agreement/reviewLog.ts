import type { Review } from '../../format';

/**
 * One line of a run's shared review log (`<run>/.trajscope/reviews.jsonl`): a review put or removed.
 * `digest` names the file content the review belongs to (docs/adr/0005); agreement joins on the rollout
 * key alone, as the exported reviews do.
 */
export type ReviewerLogEntry = { op: 'put'; digest: string; review: Review } | { op: 'remove'; digest: string; review: ReviewRef };

/** What a `remove` needs: which rollout, whose review. */
interface ReviewRef {
  rollout_id: string;
  attempt_id: string | null;
  reviewer: string;
}

const foldKey = (r: ReviewRef) => JSON.stringify([r.rollout_id, r.attempt_id, r.reviewer]);

/**
 * The reviews a log leaves standing, in the order each was last put: per rollout + attempt + reviewer
 * the last entry wins, and a `remove` deletes the review before it. Later files' entries come after
 * earlier files', so they win too.
 */
export function foldReviewsByReviewer(entries: Iterable<ReviewerLogEntry>): Review[] {
  const standing = new Map<string, Review>();
  for (const e of entries) {
    const key = foldKey(e.review);
    standing.delete(key);
    if (e.op === 'put') standing.set(key, e.review);
  }
  return [...standing.values()];
}
