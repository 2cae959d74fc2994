export { DEMO_RUN_STEPS, demoRunUrls } from './demoRun';
export {
  backToList,
  openRollout,
  openSources,
  selectRollout,
  setParams,
  useLocalFiles,
  useNotice,
  useProblemsOpen,
  useSelectedRolloutKey,
  useSelection,
  useSourceIds,
  useUiActions,
} from './hooks';
export { navigate, useSearch } from './location';
export type {
  LoadedReviews,
  LoadedReviewsStatus,
  ReviewActions,
  ReviewFilter,
  ReviewMap,
  ReviewProgress,
  ReviewsOfDigest,
  ReviewTarget,
} from './reviews';
export {
  filterByReview,
  mergeReviews,
  nextByReview,
  planImport,
  removeReview,
  reviewActions,
  reviewProgress,
  setReviewer,
  upsertReview,
  useLoadedReviews,
  useReviewActions,
  useReviewer,
  useReviewerActions,
  useReviews,
} from './reviews';
export { findRollout, rolloutKeys } from './rolloutKeys';
export type { GroupSortKey, GroupsBrowse, RunFilters, RunFiltersState, RunSort, RunSortKey, SignalFilter, SortDir } from './runFilters';
export {
  clearRunFilters,
  cycleSort,
  initialRunFiltersState,
  isFiltered,
  noRunFilters,
  setGroupCode,
  setGroupPage,
  setGroupSort,
  setRunFilters,
  toggleTermination,
  useGroupsBrowse,
  useRunFilters,
  useRunFiltersActions,
  useRunSort,
} from './runFilters';
export type { RolloutTab, Selection, View } from './url';
export { isLocalSource, LOCAL_PREFIX, readSelection } from './url';
export type { ResolvedSources } from './useSources';
export { DEMO_URL, useSources } from './useSources';
