import { useCallback } from 'react';
import type { GroupSummary, RolloutSummary } from '../../analysis';
import type { FieldMapping } from '../../format';
import type { Dataset, DatasetCounts, LoadSource } from '../../load';
import { useSelection } from '../hooks';
import { useDataset } from './datasetContext';

/*
 * Named reads of the dataset: each is computed once per version of the data (in the dataset itself),
 * so two views asking get the same array, and a view never re-derives the loaded data.
 */

/** The run list's rows (rollout summaries), in file order. */
export const useRolloutRows = (): readonly RolloutSummary[] => useDataset().rows;
/** The `rollout=` key of each row. */
export const useRolloutKeys = (): readonly string[] => useDataset().keys;
/** Each row's `policy_version`, or null. */
export const usePolicies = (): readonly (string | null)[] => useDataset().policies;
/** Each row's recorded `training_step`, or null (all null when the dataset cannot say). */
export function useTrainingSteps(): readonly (number | null)[] {
  const dataset = useDataset();
  return dataset.trainingSteps ?? NO_STEPS;
}
const NO_STEPS: readonly (number | null)[] = [];
/** The files a text search reads when they are not the open sources (a run's files), else null. */
export const useScanSources = (): readonly LoadSource[] | null => useDataset().scanSources ?? null;
export const useScanMapping = (): FieldMapping | undefined => useDataset().scanMapping;
export const useGroups = (): readonly GroupSummary[] => useDataset().groups;
export const useGroupsById = (): ReadonlyMap<string, GroupSummary> => useDataset().groupsById;
export const useDatasetCounts = (): DatasetCounts => useDataset().counts;
export const useLoadedFiles = () => useDataset().files;
/** Lines that did not load. */
export const useProblems = () => useDataset().problems;
/** Followed files' half-written last lines. */
export const usePendingLines = () => useDataset().pending;
/** Reads a rollout's full record by key (Dataset.rollout): for a pass over many, such as an export. */
export function useReadRollout(): (key: string) => ReturnType<Dataset['rollout']> {
  const dataset = useDataset();
  return useCallback((key: string) => dataset.rollout(key), [dataset]);
}

/** Each row's advantage under the URL's mode (`adv=dr`: Dr. GRPO), null when not counted. */
export function useAdvantages(): readonly (number | null)[] {
  const { drGrpo } = useSelection();
  return useDataset().advantages(drGrpo ? 'dr' : 'grpo');
}

/** Each row's GRPO advantage (whatever the URL's mode): what counts as "in the group statistics". */
export const useGrpoAdvantages = (): readonly (number | null)[] => useDataset().advantages('grpo');

/** The row the URL's `rollout=` points at, or -1. */
export function useSelectedIndex(): number {
  const { rollout } = useSelection();
  return useDataset().indexOf(rollout);
}
