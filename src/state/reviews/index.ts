export { useReviewer, useReviewerActions } from './reviewerStore';
export type { ReviewFilter } from './reviewMap';
export { filterByReview, keptByReview, nextByReview, planImport, reviewProgress } from './reviewMap';
export { useReviewSaving } from './saving';
export type { LoadedReviews } from './useReviews';
export { useLoadedReviews, useReviewActions, useReviewTabSync } from './useReviews';
