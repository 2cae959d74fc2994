import { useMemo } from 'react';
import type { GroupSummary, RolloutSummary } from '../../analysis';
import type { Rollout } from '../../format';
import { type Decoder, useDecoder } from '../../load';
import { useSelection } from '../hooks';
import { useDataset } from './datasetContext';
import { useRolloutRecord } from './useRolloutRecord';

/** The rollout the URL selects, with what every view of it shares. */
export interface SelectedRollout {
  /** The `rollout=` value that selects it. */
  key: string;
  /** Its row in the run list (file order). */
  index: number;
  summary: RolloutSummary;
  /** The full record; null while it is being read (a rollout from a run index arrives later). */
  record: Rollout | null;
  /** Why the record could not be read, or null. */
  error: string | null;
  /** How far a huge record's expansion has got (0..1) while it is read; null otherwise. */
  progress: number | null;
  group: GroupSummary | undefined;
  /** Advantage in its group under the URL's mode; null when the rollout is not counted. */
  advantage: number | null;
  drGrpo: boolean;
  /** The keys of the rows before and after it, for j / k. */
  prevKey: string | undefined;
  nextKey: string | undefined;
  /** Rows in all. */
  total: number;
}

/**
 * Row `index`'s summary, whole: the row itself for a loaded file, and for a run index's row (counts
 * only) the summary made from its record once the record is read (`Dataset.summaryFromRecord`), so the
 * views of one rollout show the regressions and findings the list counted.
 */
export function useRolloutSummary(index: number, record: Rollout | null): RolloutSummary | undefined {
  const dataset = useDataset();
  const row = dataset.row(index);
  return useMemo(
    () => (row && record && dataset.summaryFromRecord ? dataset.summaryFromRecord(index, record) : row),
    [dataset, index, row, record],
  );
}

/** The selected rollout, or null when the URL names none the data has. */
export function useSelectedRollout(): SelectedRollout | null {
  const dataset = useDataset();
  const { rollout: requested, drGrpo } = useSelection();
  const index = dataset.indexOf(requested);
  const key = dataset.keys[index];
  const { record, error, progress } = useRolloutRecord(key);
  const summary = useRolloutSummary(index, record);
  const mode = drGrpo ? 'dr' : 'grpo';
  const { group, advantage } = useMemo(() => dataset.groupOf(index, mode), [dataset, index, mode]);
  if (!summary || key === undefined) return null;
  return {
    key,
    index,
    summary,
    record,
    error,
    progress,
    group,
    advantage,
    drGrpo,
    prevKey: dataset.keys[index - 1],
    nextKey: dataset.keys[index + 1],
    total: dataset.keys.length,
  };
}

/**
 * The selected rollout's record, for the views that show it (they render only once it is there: the
 * rollout page waits for it).
 */
export function useSelectedRecord(): Rollout | null {
  return useSelectedRollout()?.record ?? null;
}

/** Token ids to text for the selected rollout; null while there is no record. */
export function useSelectedDecoder(): Decoder | null {
  return useDecoder(useSelectedRecord());
}
