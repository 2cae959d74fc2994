import type { Review } from '../../format';

/** Whether two reviews of one rollout are the same review (every field). */
export function sameReview(a: Review, b: Review): boolean {
  return (
    a.rollout_id === b.rollout_id &&
    a.attempt_id === b.attempt_id &&
    a.verdict === b.verdict &&
    a.note === b.note &&
    a.reviewer === b.reviewer &&
    a.timestamp === b.timestamp
  );
}
