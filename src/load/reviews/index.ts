export { contentDigest, contentDigestOptions, digestStream, useContentDigest } from './contentDigest';
export type { ReviewDb } from './reviewDb';
export { memoryReviewDb, reviewDb } from './reviewDb';
export type { ParsedReviews, ReviewLineError } from './reviewJsonl';
export { parseReviewsJsonl, reviewsToJsonl } from './reviewJsonl';
export type { StoredReviews } from './reviewsQuery';
export { reviewsOptions } from './reviewsQuery';
export type { Review, ReviewKey, ReviewVerdict } from './types';
export { isReviewVerdict, REVIEW_VERDICTS, reviewKey } from './types';
