import { type QueryClient, useQueries, useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo, useRef } from 'react';
import type { RolloutSummary } from '../../analysis';
import {
  contentDigestOptions,
  type LoadSource,
  type Review,
  type ReviewDb,
  reviewDb,
  reviewKey,
  reviewsOptions,
  type StoredReviews,
} from '../../load';
import { mergeReviews, type ReviewMap, type ReviewTarget, removeReview, upsertReview } from './reviewMap';

const NO_REVIEWS: ReviewMap = new Map();

/**
 * A change shows at once (the cache is updated first, so a key press marks the rollout without waiting
 * for the disk), then is written to the store; a failed write re-reads the store so the screen never
 * shows a review that was not kept.
 */
async function write(client: QueryClient, digest: string, update: (m: ReviewMap) => ReviewMap, persist: (db: ReviewDb) => Promise<void>) {
  const { queryKey } = reviewsOptions(digest);
  client.setQueryData<StoredReviews>(queryKey, (old) => ({
    reviews: update(old?.reviews ?? NO_REVIEWS),
    persistent: old?.persistent ?? true,
  }));
  try {
    await persist(await reviewDb());
  } catch (e) {
    await client.invalidateQueries({ queryKey });
    throw e;
  }
}

/** Review changes for the reviews of one content digest. */
function reviewActions(client: QueryClient) {
  return {
    save: (digest: string, review: Review) =>
      write(
        client,
        digest,
        (m) => upsertReview(m, review),
        (db) => db.put(digest, [review]),
      ),
    remove: (digest: string, rollout: Pick<Review, 'rollout_id' | 'attempt_id'>) =>
      write(
        client,
        digest,
        (m) => removeReview(m, reviewKey(rollout)),
        (db) => db.remove(digest, rollout),
      ),
    clear: (digest: string) =>
      write(
        client,
        digest,
        () => NO_REVIEWS,
        (db) => db.clear(digest),
      ),
    /** Imported reviews replace stored ones for the same rollout. */
    importReviews: async (digest: string, reviews: readonly Review[]) => {
      let counts = { added: 0, replaced: 0 };
      await write(
        client,
        digest,
        (m) => {
          const merged = mergeReviews(m, reviews);
          counts = { added: merged.added, replaced: merged.replaced };
          return merged.map;
        },
        (db) => db.put(digest, reviews),
      );
      return counts;
    },
  };
}

export type ReviewActions = ReturnType<typeof reviewActions>;

export function useReviewActions(): ReviewActions {
  const client = useQueryClient();
  return useMemo(() => reviewActions(client), [client]);
}

export interface ReviewsOfDigest {
  /** Keyed by `reviewKey` (rollout_id, plus `#attempt_id`). Empty while loading. */
  reviews: ReviewMap;
  isPending: boolean;
  error: string | null;
  /** False when the browser refused IndexedDB: reviews last only while the tab is open. */
  persistent: boolean;
}

/** The reviews stored for one file's content digest (null: none yet, nothing is read). */
export function useReviews(digest: string | null): ReviewsOfDigest {
  const q = useQuery(reviewsOptions(digest));
  return {
    reviews: q.data?.reviews ?? NO_REVIEWS,
    isPending: digest === null || q.isPending,
    error: q.error ? String(q.error) : null,
    persistent: q.data?.persistent ?? true,
  };
}

type LoadedReviewsStatus = 'off' | 'digesting' | 'reading' | 'ready' | 'error';

export interface LoadedReviews {
  status: LoadedReviewsStatus;
  error: string | null;
  persistent: boolean;
  /** The review of each loaded rollout that has one, keyed by its `rollout=` key (load/rolloutKeys). */
  byRolloutKey: ReadonlyMap<string, Review>;
  /** Identity and file digest of each rollout, index-aligned with the rollouts. */
  targets: ReviewTarget[];
  /** Content digest per source name, for the files whose digest is known. */
  digestOfFile: ReadonlyMap<string, string>;
}

/**
 * The reviews of every loaded rollout, across all loaded files. Nothing is read while `enabled` is
 * false; once enabled, each file's content digest is computed (once per source, cached) and its
 * reviews read from the store.
 */
export function useLoadedReviews(
  sources: readonly LoadSource[],
  rollouts: readonly Pick<RolloutSummary, 'file' | 'rollout_id' | 'attempt_id'>[],
  keys: readonly string[],
  enabled = true,
): LoadedReviews {
  const digests = useQueries({
    queries: sources.map((s) => ({ ...contentDigestOptions(s), enabled })),
  });
  const digestByName = new Map<string, string>();
  sources.forEach((s, i) => {
    const d = digests[i]?.data;
    // Two sources with one name (two URLs ending alike) cannot be told apart by a rollout's `file`: the first wins.
    if (d !== undefined && !digestByName.has(s.name)) digestByName.set(s.name, d);
  });
  const digestKey = [...digestByName].map(([n, d]) => `${n}\t${d}`).join('\n');
  const distinct = [...new Set(digestByName.values())];
  const stored = useQueries({ queries: distinct.map((d) => reviewsOptions(d)) });
  const storedData = useShallowStable(stored.map((q) => q.data));

  // biome-ignore lint/correctness/useExhaustiveDependencies: keyed on the digests themselves, not on the Map rebuilt each render.
  const digestOfFile = useMemo(() => new Map(digestByName), [digestKey]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: `distinct` follows `digestOfFile`; `storedData` holds what `stored` holds.
  const value = useMemo(() => {
    const byDigest = new Map(distinct.map((d, i) => [d, storedData[i]?.reviews ?? NO_REVIEWS]));
    const byRolloutKey = new Map<string, Review>();
    const targets: ReviewTarget[] = rollouts.map((r, i) => {
      const digest = digestOfFile.get(r.file) ?? null;
      const review = digest === null ? undefined : byDigest.get(digest)?.get(reviewKey(r));
      const key = keys[i];
      if (review && key !== undefined) byRolloutKey.set(key, review);
      return { rollout_id: r.rollout_id, attempt_id: r.attempt_id, digest };
    });
    return { byRolloutKey, targets };
  }, [rollouts, keys, digestOfFile, storedData]);

  const digestError = digests.find((q) => q.error)?.error;
  const readError = stored.find((q) => q.error)?.error;
  const status: LoadedReviewsStatus = !enabled
    ? 'off'
    : digestError || readError
      ? 'error'
      : digests.some((q) => q.isPending)
        ? 'digesting'
        : stored.some((q) => q.isPending)
          ? 'reading'
          : 'ready';
  return {
    status,
    error: digestError ? String(digestError) : readError ? String(readError) : null,
    persistent: stored.every((q) => q.data?.persistent ?? true),
    byRolloutKey: value.byRolloutKey,
    targets: value.targets,
    digestOfFile,
  };
}

/** The same array as last render while every element is the same: a stable dependency for useMemo. */
function useShallowStable<T>(items: T[]): T[] {
  const ref = useRef(items);
  const prev = ref.current;
  if (prev.length !== items.length || prev.some((x, i) => x !== items[i])) ref.current = items;
  return ref.current;
}
