// The review line format lives in src/format (the only place that parses); re-exported for the views.
export type { Review, ReviewKey, ReviewLineError, ReviewVerdict } from '../../format';
export { parseReviewsJsonl, REVIEW_LOG_PATH, REVIEW_VERDICTS, reviewKey, reviewsToJsonl } from '../../format';
export { contentDigestOptions } from './contentDigest';
export { announceReviewChange, onReviewChange } from './reviewChannel';
export type { ReviewDb } from './reviewDb';
export { reviewDb } from './reviewDb';
export type { StoredReviews } from './reviewsQuery';
export { reviewsOptions } from './reviewsQuery';
export { sameReview } from './sameReview';
