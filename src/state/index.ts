export * from './dataset';
export { DEMO_RUN_FILES, DEMO_RUN_TRAINING_STEPS, demoRunIndex, demoRunUrls } from './demoRun';
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
  compareSteps,
  filterMismatchAbove,
  openBundledRun,
  openRun,
  openSources,
  openSteps,
  readWith,
  selectRollout,
  selectStep,
  selectSteps,
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
  toModes,
  toQueue,
  toRegrade,
  toRollout,
  toRun,
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
  useReviewSaving,
} from './reviews';
export { startOpenedRun, useRun } from './run';
export type { GroupSortKey, RunFilters, RunSort, RunSortKey, SignalFilter } from './runFilters';
export {
  isFiltered,
  noRunFilters,
  useGroupsBrowse,
  useRunFilters,
  useRunFiltersActions,
  useRunSort,
} from './runFilters';
export { useRunFailureModes } from './runModes';
export type { SearchResult } from './search/useSearchRun';
export { useSearchRun } from './search/useSearchRun';
export type { RolloutTab, StepRange, View } from './url';
export { formatRange } from './url';
export { DEMO_URL, useSources } from './useSources';
