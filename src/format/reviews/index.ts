export type { Review, ReviewKey, ReviewVerdict } from './review';
export { isReviewVerdict, REVIEW_VERDICTS, reviewKey } from './review';
export type { ParsedReviews, ReviewLineError } from './reviewJsonl';
export { parseReviewsJsonl, reviewsToJsonl } from './reviewJsonl';
