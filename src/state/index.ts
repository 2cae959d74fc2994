export * from './dataset';
export { DEMO_RUN_STEPS, demoRunUrls } from './demoRun';
export {
  useComparePick,
  useNotice,
  useProblemsOpen,
  useReadOptions,
  useSelectedRolloutKey,
  useSelection,
  useUiActions,
} from './hooks';
export {
  backToList,
  openSources,
  readWith,
  selectRollout,
  selectStep,
  selectToken,
  setAdvantageMode,
  setQuery,
  shadeByDrift,
  showTab,
  showTokenTarget,
  toAllRollouts,
  toCheckpoints,
  toCompare,
  toGroups,
  toRollout,
  toSearch,
  toToken,
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
export type { SearchResult } from './search/useSearchRun';
export { useSearchRun } from './search/useSearchRun';
export type { RolloutTab, View } from './url';
export { DEMO_URL, useSources } from './useSources';
