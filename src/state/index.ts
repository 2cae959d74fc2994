export * from './dataset';
export { DEMO_RUN_STEPS, demoRunUrls } from './demoRun';
export {
  useNotice,
  useProblemsOpen,
  useReadOptions,
  useSelectedRolloutKey,
  useSelection,
  useUiActions,
} from './hooks';
export {
  backToList,
  filterMismatchAbove,
  openSources,
  readWith,
  selectRollout,
  selectStep,
  selectToken,
  setAdvantageMode,
  shadeByDrift,
  showTab,
  showTokenTarget,
  toAllRollouts,
  toGroups,
  toRollout,
} from './navigation';
export type {
  LoadedReviews,
  ReviewFilter,
} from './reviews';
export {
  filterByReview,
  keptByReview,
  nextByReview,
  planImport,
  reviewProgress,
  useReviewActions,
  useReviewer,
  useReviewerActions,
  useReviewTabSync,
} from './reviews';
export type { GroupSortKey, RunFilters, RunSort, RunSortKey, SignalFilter } from './runFilters';
export {
  isFiltered,
  noRunFilters,
  useGroupsBrowse,
  useRunFilters,
  useRunFiltersActions,
  useRunSort,
} from './runFilters';
export type { RolloutTab, View } from './url';

export { DEMO_URL, useSources } from './useSources';
