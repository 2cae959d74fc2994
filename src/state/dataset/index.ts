export type { DataSource, FilesDataSource, RunDataSource } from './dataSource';
export { DataSourceProvider, useDataSource } from './dataSource';
export { DatasetProvider, useRunSnapshot } from './datasetContext';
export {
  useAdvantages,
  useDatasetCounts,
  useGroups,
  useGroupsById,
  useGrpoAdvantages,
  useLoadedFiles,
  usePendingLines,
  usePolicies,
  useProblems,
  useReadRollout,
  useRolloutKeys,
  useRolloutRows,
  useScanMapping,
  useScanSources,
  useSelectedIndex,
  useTrainingSteps,
} from './hooks';
export { useDatasetReviews } from './useDatasetReviews';
export { useRecordDecoder, useRolloutRecord } from './useRolloutRecord';
export type { SelectedRollout } from './useSelectedRollout';
export { useRolloutSummary, useSelectedDecoder, useSelectedRecord, useSelectedRollout } from './useSelectedRollout';
