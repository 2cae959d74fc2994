import { type LoadedReviews, useLoadedReviews } from '../reviews';
import { useSources } from '../useSources';
import { useDataset } from './datasetContext';

/**
 * The reviewer's marks on every loaded rollout, keyed by `rollout=` key. Nothing is read while `enabled`
 * is false: reviews are filed by each file's content digest, which is computed only when first needed.
 */
export function useDatasetReviews(enabled: boolean): LoadedReviews {
  const { sources } = useSources();
  const dataset = useDataset();
  return useLoadedReviews(sources, dataset.rows, dataset.keys, enabled);
}
