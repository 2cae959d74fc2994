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
  put(digest: string, reviews: readonly Review[]): Promise<void>;
  remove(digest: string, key: Pick<Review, 'rollout_id' | 'attempt_id'>): Promise<void>;
  clear(digest: string): Promise<void>;
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
      await Promise.all([...reviews.map((r) => tx.store.put({ ...r, digest, attempt: r.attempt_id ?? '' })), tx.done]);
    },
    async remove(digest, r) {
      await db.delete(STORE, [digest, r.rollout_id, r.attempt_id ?? '']);
    },
    async clear(digest) {
      const tx = db.transaction(STORE, 'readwrite');
      const keys = await tx.store.index('digest').getAllKeys(digest);
      await Promise.all([...keys.map((k) => tx.store.delete(k)), tx.done]);
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
      for (const r of reviews) of(digest).set(reviewKey(r), r);
    },
    remove: async (digest, r) => {
      of(digest).delete(reviewKey(r));
    },
    clear: async (digest) => {
      byDigest.delete(digest);
    },
  };
}

let opened: Promise<ReviewDb> | null = null;

/** The page's review store, opened once; in-memory when IndexedDB cannot be opened. */
export function reviewDb(): Promise<ReviewDb> {
  opened ??= (typeof indexedDB === 'undefined' ? Promise.reject(new Error('no IndexedDB')) : openIndexedDb()).catch(() => memoryReviewDb());
  return opened;
}
