import { type DBSchema, openDB } from 'idb';
import { type Review, type ReviewKey, reviewKey } from '../../format';

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

/** Where reviews are kept. `persistent` is false when IndexedDB is unavailable and they live only in memory. */
export interface ReviewDb {
  readonly persistent: boolean;
  list(digest: string): Promise<Review[]>;
  /** Stores the reviews, each replacing the stored one of its rollout; says how many were new and replaced. */
  put(digest: string, reviews: readonly Review[]): Promise<{ added: number; replaced: number }>;
  remove(digest: string, key: Pick<Review, 'rollout_id' | 'attempt_id'>): Promise<void>;
  /**
   * Deletes each given review only if it is still stored as given, in one transaction: a clear deletes
   * what it announced, never a review another tab changed since. Returns how many it deleted.
   */
  removeIfUnchanged(digest: string, reviews: readonly Review[]): Promise<number>;
}

/** Whether two reviews of one rollout are the same review (every field). */
export function sameReview(a: Review, b: Review): boolean {
  return (
    a.rollout_id === b.rollout_id &&
    a.attempt_id === b.attempt_id &&
    a.verdict === b.verdict &&
    a.note === b.note &&
    a.reviewer === b.reviewer &&
    a.timestamp === b.timestamp
  );
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

/** The page's review store, opened once; in-memory when IndexedDB cannot be opened. */
export function reviewDb(): Promise<ReviewDb> {
  opened ??= (typeof indexedDB === 'undefined' ? Promise.reject(new Error('no IndexedDB')) : openIndexedDb()).catch(() => memoryReviewDb());
  return opened;
}
