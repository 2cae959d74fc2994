import { type DBSchema, openDB } from 'idb';
import { type Review, type ReviewKey, reviewKey } from '../../format';
import { sameReview } from './sameReview';
import { servedReviewDb } from './serverReviewDb';

/*
 * Reviews persist in the browser's IndexedDB, one object per (content digest, rollout_id, attempt_id).
 * Keying by the file's content rather than its name means a review follows the bytes: the same file
 * reopened tomorrow (or from another folder) finds its reviews, and a changed file does not inherit
 * reviews of rollouts that may have changed.
 */

const DB_NAME = 'trajscope-reviews';
const STORE = 'reviews';

interface StoredReview extends Review {
  digest: string;
  /** attempt_id with null as '' : IndexedDB keys cannot hold null. */
  attempt: string;
}

interface ReviewSchema extends DBSchema {
  reviews: { key: [string, string, string]; value: StoredReview; indexes: { digest: string } };
}

/**
 * Where reviews are kept. `persistent` is false when IndexedDB is unavailable and they live only in memory;
 * `shared` is true when they are kept in the served run's review log (serverReviewDb.ts), for everyone
 * who opens the run.
 */
export interface ReviewDb {
  readonly persistent: boolean;
  readonly shared: boolean;
  list(digest: string): Promise<Review[]>;
  /** Stores the reviews, each replacing the stored one of its rollout; says how many were new and replaced. */
  put(digest: string, reviews: readonly Review[]): Promise<{ added: number; replaced: number }>;
  /** Removes a rollout's review; `by` names who removed it where the store records removals (the run's log). */
  remove(digest: string, key: Pick<Review, 'rollout_id' | 'attempt_id'>, by?: string): Promise<void>;
  /**
   * Deletes each given review only if it is still stored as given (in IndexedDB, in one transaction): a
   * clear deletes what it announced, never a review another tab changed since. Returns how many it deleted.
   */
  removeIfUnchanged(digest: string, reviews: readonly Review[], by?: string): Promise<number>;
}

function fromStored({ digest: _d, attempt: _a, ...review }: StoredReview): Review {
  return review;
}

async function openIndexedDb(): Promise<ReviewDb> {
  const db = await openDB<ReviewSchema>(DB_NAME, 1, {
    upgrade(d) {
      const store = d.createObjectStore(STORE, { keyPath: ['digest', 'rollout_id', 'attempt'] });
      store.createIndex('digest', 'digest');
    },
  });
  return {
    persistent: true,
    shared: false,
    async list(digest) {
      return (await db.getAllFromIndex(STORE, 'digest', digest)).map(fromStored);
    },
    async put(digest, reviews) {
      const tx = db.transaction(STORE, 'readwrite');
      let replaced = 0;
      // Counted from the store, inside the write: another tab's reviews count, not this tab's memory.
      const writes = reviews.map(async (r) => {
        if (await tx.store.get([digest, r.rollout_id, r.attempt_id ?? ''])) replaced++;
        await tx.store.put({ ...r, digest, attempt: r.attempt_id ?? '' });
      });
      await Promise.all([...writes, tx.done]);
      return { added: reviews.length - replaced, replaced };
    },
    async remove(digest, r) {
      await db.delete(STORE, [digest, r.rollout_id, r.attempt_id ?? '']);
    },
    async removeIfUnchanged(digest, reviews) {
      const tx = db.transaction(STORE, 'readwrite');
      let removed = 0;
      const deletes = reviews.map(async (r) => {
        const key: [string, string, string] = [digest, r.rollout_id, r.attempt_id ?? ''];
        const stored = await tx.store.get(key);
        if (stored && sameReview(fromStored(stored), r)) {
          await tx.store.delete(key);
          removed++;
        }
      });
      await Promise.all([...deletes, tx.done]);
      return removed;
    },
  };
}

/** The fallback when the browser refuses IndexedDB (some private modes): reviews last until the tab closes. */
export function memoryReviewDb(): ReviewDb {
  const byDigest = new Map<string, Map<ReviewKey, Review>>();
  const of = (digest: string) => {
    let m = byDigest.get(digest);
    if (!m) {
      m = new Map();
      byDigest.set(digest, m);
    }
    return m;
  };
  return {
    persistent: false,
    shared: false,
    list: async (digest) => [...of(digest).values()],
    put: async (digest, reviews) => {
      let replaced = 0;
      for (const r of reviews) {
        if (of(digest).has(reviewKey(r))) replaced++;
        of(digest).set(reviewKey(r), r);
      }
      return { added: reviews.length - replaced, replaced };
    },
    remove: async (digest, r) => {
      of(digest).delete(reviewKey(r));
    },
    removeIfUnchanged: async (digest, reviews) => {
      let removed = 0;
      for (const r of reviews) {
        const stored = of(digest).get(reviewKey(r));
        if (stored && sameReview(stored, r)) {
          of(digest).delete(reviewKey(r));
          removed++;
        }
      }
      return removed;
    },
  };
}

let opened: Promise<ReviewDb> | null = null;

/**
 * The page's review store, chosen once: the served run's review log when `trajscope view` keeps one
 * (docs/adr/0026), else IndexedDB, else memory when the browser refuses IndexedDB.
 */
export function reviewDb(): Promise<ReviewDb> {
  opened ??= servedReviewDb().then(
    (served) =>
      served ??
      (typeof indexedDB === 'undefined' ? Promise.reject(new Error('no IndexedDB')) : openIndexedDb()).catch(() => memoryReviewDb()),
  );
  return opened;
}
