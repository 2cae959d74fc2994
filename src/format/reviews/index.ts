export type { Review, ReviewKey, ReviewVerdict } from './review';
export { REVIEW_VERDICTS, reviewKey } from './review';
export type { ReviewLineError } from './reviewJsonl';
export { parseReviewsJsonl, reviewsToJsonl } from './reviewJsonl';
export type { ReviewLogEntry, ReviewLogPage } from './reviewLog';
export { foldReviewLog, isReviewEntryError, parseReviewLogPage, REVIEW_LOG_PATH, toReviewLogEntry } from './reviewLog';
