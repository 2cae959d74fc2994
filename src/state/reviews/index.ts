export type { ReviewerState } from './reviewerStore';
export { initialReviewerState, MAX_REVIEWER_LENGTH, setReviewer, useReviewer, useReviewerActions } from './reviewerStore';
export type { ReviewFilter, ReviewMap, ReviewProgress, ReviewTarget } from './reviewMap';
export { filterByReview, mergeReviews, nextByReview, planImport, removeReview, reviewProgress, upsertReview } from './reviewMap';
export type { LoadedReviews, LoadedReviewsStatus, ReviewActions, ReviewsOfDigest } from './useReviews';
export { reviewActions, useLoadedReviews, useReviewActions, useReviews, useReviewTabSync } from './useReviews';
