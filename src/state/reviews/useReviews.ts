import { type QueryClient, useQueries, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useRef } from 'react';
import type { RolloutSummary } from '../../analysis';
import {
  announceReviewChange,
  contentDigestOptions,
  type LoadSource,
  onReviewChange,
  type Review,
  type ReviewDb,
  reviewDb,
  reviewKey,
  reviewsOptions,
  type StoredReviews,
  sameReview,
} from '../../load';
import { useReviewer } from './reviewerStore';
import { mergeReviews, type ReviewMap, type ReviewTarget, removeReview, upsertReview } from './reviewMap';
import { trackWrite } from './saving';

const NO_REVIEWS: ReviewMap = new Map();

/**
 * A change shows at once (the cache is updated first, so a key press marks the rollout without waiting
 * for the disk), then is written to the store; a failed write re-reads the store so the screen never
 * shows a review that was not kept.
 */
async function write<T>(
  client: QueryClient,
  digest: string,
  update: (m: ReviewMap) => ReviewMap,
  persist: (db: ReviewDb) => Promise<T>,
): Promise<T> {
  const { queryKey } = reviewsOptions(digest);
  client.setQueryData<StoredReviews>(queryKey, (old) => ({
    reviews: update(old?.reviews ?? NO_REVIEWS),
    persistent: old?.persistent ?? true,
    shared: old?.shared ?? false,
  }));
  try {
    const result = await persist(await reviewDb());
    // The other tabs read this file's reviews again (reviewChannel.ts).
    announceReviewChange(digest);
    return result;
  } catch (e) {
    await client.invalidateQueries({ queryKey });
    throw e;
  }
}

/**
 * Keeps this tab's reviews in step with the other tabs' (and, when the reviews are kept in the served run,
 * with every reviewer's): when one says a file's reviews changed, they are read again from the store.
 * Mounted once, at the root.
 */
export function useReviewTabSync(): void {
  const client = useQueryClient();
  useEffect(() => onReviewChange((digest) => void client.invalidateQueries({ queryKey: reviewsOptions(digest).queryKey })), [client]);
}

/** Review changes for the reviews of one content digest; `reviewer` names who removes (the run's log records it). */
function reviewActions(client: QueryClient, reviewer: () => string) {
  return {
    save: (digest: string, review: Review) =>
      trackWrite(
        digest,
        reviewKey(review),
        write(
          client,
          digest,
          (m) => upsertReview(m, review),
          (db) => db.put(digest, [review]),
        ),
      ),
    remove: (digest: string, rollout: Pick<Review, 'rollout_id' | 'attempt_id'>) =>
      trackWrite(
        digest,
        reviewKey(rollout),
        write(
          client,
          digest,
          (m) => removeReview(m, reviewKey(rollout)),
          (db) => db.remove(digest, rollout, reviewer()),
        ),
      ),
    /**
     * Deletes the reviews a confirmation announced, each only if it is still stored as announced (another
     * tab may have changed it since); then reads the store again. Returns how many were deleted.
     */
    removeAnnounced: async (digest: string, announced: readonly Review[]) => {
      const removed = await write(
        client,
        digest,
        (m) => {
          let next = m;
          for (const r of announced) {
            const stored = m.get(reviewKey(r));
            if (stored && sameReview(stored, r)) next = removeReview(next, reviewKey(r));
          }
          return next;
        },
        (db) => db.removeIfUnchanged(digest, announced, reviewer()),
      );
      await client.invalidateQueries({ queryKey: reviewsOptions(digest).queryKey });
      return removed;
    },
    /** Imported reviews replace stored ones for the same rollout; the counts are the store's, not this tab's memory. */
    importReviews: (digest: string, reviews: readonly Review[]) =>
      write(
        client,
        digest,
        (m) => mergeReviews(m, reviews).map,
        (db) => db.put(digest, reviews),
      ),
    /** The reviews of one file as stored now (read again, not this tab's copy), for an export. */
    stored: async (digest: string): Promise<ReviewMap> => (await client.fetchQuery({ ...reviewsOptions(digest), staleTime: 0 })).reviews,
  };
}

export type ReviewActions = ReturnType<typeof reviewActions>;

export function useReviewActions(): ReviewActions {
  const client = useQueryClient();
  // Read when an action runs, so typing a name does not make new actions on every key.
  const name = useReviewer();
  const reviewer = useRef(name);
  useEffect(() => {
    reviewer.current = name;
  }, [name]);
  return useMemo(() => reviewActions(client, () => reviewer.current.trim()), [client]);
}

export interface ReviewsOfDigest {
  /** Keyed by `reviewKey` (rollout_id, plus `#attempt_id`). Empty while loading. */
  reviews: ReviewMap;
  isPending: boolean;
  error: string | null;
  /** False when the browser refused IndexedDB: reviews last only while the tab is open. */
  persistent: boolean;
  /** True when they are kept in the served run (.trajscope/reviews.jsonl) rather than this browser. */
  shared: boolean;
}

/** The reviews stored for one file's content digest (null: none yet, nothing is read). */
export function useReviews(digest: string | null): ReviewsOfDigest {
  const q = useQuery(reviewsOptions(digest));
  return {
    reviews: q.data?.reviews ?? NO_REVIEWS,
    isPending: digest === null || q.isPending,
    error: q.error ? String(q.error) : null,
    persistent: q.data?.persistent ?? true,
    shared: q.data?.shared ?? false,
  };
}

type LoadedReviewsStatus = 'off' | 'digesting' | 'reading' | 'ready' | 'error';

export interface LoadedReviews {
  status: LoadedReviewsStatus;
  error: string | null;
  persistent: boolean;
  /** True when the reviews are kept in the served run (.trajscope/reviews.jsonl), for everyone who opens it. */
  shared: boolean;
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
    shared: stored.some((q) => q.data?.shared ?? false),
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
