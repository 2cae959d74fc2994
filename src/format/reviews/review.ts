/** A person's judgement of one grader decision. */
export type ReviewVerdict = 'agree' | 'disagree' | 'unsure';

export const REVIEW_VERDICTS: readonly ReviewVerdict[] = ['agree', 'disagree', 'unsure'];

export function isReviewVerdict(v: unknown): v is ReviewVerdict {
  return v === 'agree' || v === 'disagree' || v === 'unsure';
}

/**
 * One review, exactly the fields of an exported line. It belongs to a file's content digest (kept beside
 * it in storage, not in the line) and to a rollout by `rollout_id` + `attempt_id`.
 */
export interface Review {
  rollout_id: string;
  attempt_id: string | null;
  verdict: ReviewVerdict;
  note: string;
  reviewer: string;
  /** ISO 8601, when the review was last changed. */
  timestamp: string;
}

/**
 * The key a review is found by within one file's content: `rollout_id`, plus `#attempt_id` when it has
 * one. The same string as a rollout's `rollout=` key (state/rolloutKeys) unless the rollout is duplicated.
 */
export type ReviewKey = string;

export function reviewKey(r: { rollout_id: string; attempt_id: string | null }): ReviewKey {
  return r.attempt_id === null ? r.rollout_id : `${r.rollout_id}#${r.attempt_id}`;
}
