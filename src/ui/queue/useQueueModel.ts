import { useMemo } from 'react';
import { matchQueueItems, queueProgress, type ReviewerProgress } from '../../analysis';
import type { ReviewQueue } from '../../format';
import { useReviewsByReviewer } from '../../load';
import { useDatasetReviews, useRolloutKeys, useRolloutRows } from '../../state';
import { type ItemReviews, itemReviews } from './queueModel';

export interface QueueModel {
  /** Each item's `rollout=` key in the loaded data, or null when the data has no such rollout. */
  pageKeys: (string | null)[];
  /** Each item's file digest (what its reviews are kept under), or null while unknown or not loaded. */
  digests: (string | null)[];
  /** Each item's reviews by reviewer. */
  reviews: ItemReviews;
  progress: ReviewerProgress[];
  /** The review store's state: reviews can be saved once it is `ready`. */
  status: ReturnType<typeof useDatasetReviews>['status'];
  error: string | null;
  /** Reviews are kept in the run (the shared log): progress is everyone's. */
  shared: boolean;
}

const NONE: readonly never[] = [];

/** The queue joined to the loaded rollouts and the reviews kept for them. */
export function useQueueModel(queue: ReviewQueue): QueueModel {
  const rows = useRolloutRows();
  const keys = useRolloutKeys();
  const stored = useDatasetReviews(true);
  const rowOf = useMemo(() => matchQueueItems(queue.items, rows, keys), [queue, rows, keys]);
  const pageKeys = useMemo(() => rowOf.map((r) => (r < 0 ? null : (keys[r] ?? null))), [rowOf, keys]);
  const digests = useMemo(() => rowOf.map((r) => (r < 0 ? null : (stored.targets[r]?.digest ?? null))), [rowOf, stored.targets]);
  const standing = useMemo(
    () => pageKeys.map((k) => (k === null ? undefined : stored.byRolloutKey.get(k))),
    [pageKeys, stored.byRolloutKey],
  );
  const distinct = useMemo(() => [...new Set(digests.filter((d): d is string => d !== null))], [digests]);
  // Only the run's log keeps more than one reviewer's review of a rollout; a browser's store is `standing`.
  const logged = useReviewsByReviewer(distinct, stored.shared);
  const reviews = useMemo(
    () => itemReviews(queue.items, digests, standing, new Map(distinct.map((d, i) => [d, logged[i] ?? NONE]))),
    [queue, digests, standing, distinct, logged],
  );
  const progress = useMemo(() => queueProgress(queue, (i, r) => reviews[i]?.has(r) ?? false), [queue, reviews]);
  return { pageKeys, digests, reviews, progress, status: stored.status, error: stored.error, shared: stored.shared };
}
