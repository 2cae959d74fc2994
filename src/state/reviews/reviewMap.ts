import { type Review, type ReviewKey, type ReviewLineError, type ReviewVerdict, reviewKey } from '../../load';

/*
 * Pure functions over the reviews of loaded rollouts. The hooks apply them to the react-query cache;
 * tests call them directly.
 */

export type ReviewMap = ReadonlyMap<ReviewKey, Review>;

export function upsertReview(map: ReviewMap, review: Review): ReviewMap {
  const next = new Map(map);
  next.set(reviewKey(review), review);
  return next;
}

export function removeReview(map: ReviewMap, key: ReviewKey): ReviewMap {
  if (!map.has(key)) return map;
  const next = new Map(map);
  next.delete(key);
  return next;
}

/** Imported reviews replace stored ones for the same rollout: the file being imported is what the person chose. */
export function mergeReviews(map: ReviewMap, incoming: readonly Review[]): { map: ReviewMap; added: number; replaced: number } {
  const next = new Map(map);
  let added = 0;
  let replaced = 0;
  for (const r of incoming) {
    const key = reviewKey(r);
    if (next.has(key)) replaced++;
    else added++;
    next.set(key, r);
  }
  return { map: next, added, replaced };
}

export type ReviewFilter = 'unreviewed' | 'disagreed';

/**
 * The keys whose review matches: `unreviewed` keeps keys with no review, `disagreed` keeps keys
 * reviewed `disagree`. Order is kept. `reviews` is keyed by the same strings as `keys` (for the run
 * list, `useLoadedReviews().byRolloutKey` is keyed by the `rollout=` keys of `rolloutKeys`).
 */
export function filterByReview<K extends string>(
  keys: readonly K[],
  reviews: ReadonlyMap<string, Pick<Review, 'verdict'>>,
  filter: ReviewFilter,
): K[] {
  return keys.filter((k) => keptByReview(reviews.get(k), filter));
}

/** Whether a rollout with this review (undefined: none) is one the filter keeps. */
export function keptByReview(review: Pick<Review, 'verdict'> | undefined, filter: ReviewFilter): boolean {
  return filter === 'unreviewed' ? review === undefined : review?.verdict === 'disagree';
}

/**
 * The next key after `from` (an index into `keys`) that the filter keeps, going round to the start;
 * null when no other key matches.
 */
export function nextByReview(
  keys: readonly string[],
  from: number,
  reviews: ReadonlyMap<string, Pick<Review, 'verdict'>>,
  filter: ReviewFilter,
): string | null {
  const n = keys.length;
  for (let d = 1; d < n + (from < 0 || from >= n ? 1 : 0); d++) {
    const k = keys[(((from + d) % n) + n) % n];
    if (k !== undefined && filterByReview([k], reviews, filter).length === 1) return k;
  }
  return null;
}

export interface ReviewProgress {
  total: number;
  reviewed: number;
  byVerdict: Record<ReviewVerdict, number>;
}

export function reviewProgress(keys: readonly string[], reviews: ReadonlyMap<string, Pick<Review, 'verdict'>>): ReviewProgress {
  const byVerdict: Record<ReviewVerdict, number> = { agree: 0, disagree: 0, unsure: 0 };
  let reviewed = 0;
  for (const k of keys) {
    const r = reviews.get(k);
    if (!r) continue;
    reviewed++;
    byVerdict[r.verdict]++;
  }
  return { total: keys.length, reviewed, byVerdict };
}

/** What a loaded rollout needs for reviews: its identity and the content digest of the file it is in. */
export interface ReviewTarget {
  rollout_id: string;
  attempt_id: string | null;
  /** null while the file's digest is unknown. */
  digest: string | null;
}

/**
 * Sorts imported reviews by the file each belongs to. A review is matched to the loaded rollouts by
 * `rollout_id` + `attempt_id`; one that names no loaded rollout is reported by its line, not stored (it
 * would never be seen again). A rollout present in several files gets the review in each.
 */
export function planImport(
  entries: ReadonlyArray<{ line: number; review: Review }>,
  targets: readonly ReviewTarget[],
): { byDigest: Map<string, Review[]>; unmatched: ReviewLineError[] } {
  const digests = new Map<ReviewKey, Set<string>>();
  for (const t of targets) {
    if (t.digest === null) continue;
    const key = reviewKey(t);
    let set = digests.get(key);
    if (!set) {
      set = new Set();
      digests.set(key, set);
    }
    set.add(t.digest);
  }
  const byDigest = new Map<string, Review[]>();
  const unmatched: ReviewLineError[] = [];
  for (const { line, review } of entries) {
    const found = digests.get(reviewKey(review));
    if (!found) {
      const who = review.attempt_id === null ? review.rollout_id : `${review.rollout_id} · ${review.attempt_id}`;
      unmatched.push({ line, message: `no rollout ${who} in the loaded data` });
      continue;
    }
    for (const d of found) byDigest.set(d, [...(byDigest.get(d) ?? []), review]);
  }
  return { byDigest, unmatched };
}
