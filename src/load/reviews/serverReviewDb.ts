import { foldReviewLog, parseReviewLogPage, type Review, type ReviewLogEntry, type ReviewLogPage, reviewKey } from '../../format';
import type { ReviewDb } from './reviewDb';
import { sameReview } from './sameReview';

/*
 * Reviews kept in the served run (docs/adr/0026): `trajscope view DIR` answers GET /api/reviews with the
 * entries of DIR/.trajscope/reviews.jsonl and appends one entry per POST. The page folds the entries of
 * one file's digest into its reviews; every change is a new entry, so two reviewers at once never lose
 * one, and everyone who opens the run sees them (the server announces each append: reviewChannel.ts).
 */

const SERVED_REVIEWS_URL = '/api/reviews';

/** The entries the server holds (one digest's when given), or null when this is no `view` that keeps a log. */
async function fetchPage(digest?: string): Promise<ReviewLogPage | null> {
  const url = digest === undefined ? SERVED_REVIEWS_URL : `${SERVED_REVIEWS_URL}?digest=${encodeURIComponent(digest)}`;
  const res = await fetch(url, { headers: { Accept: 'application/json' }, cache: 'no-store' });
  if (!res.ok) {
    if (digest === undefined) return null;
    throw new Error(await refusal(res));
  }
  if (!(res.headers.get('content-type') ?? '').includes('application/json')) return null;
  return parseReviewLogPage(await res.text());
}

/** The server's own words for a refused request (`{ error }`), else its status. */
async function refusal(res: Response): Promise<string> {
  const text = await res.text().catch(() => '');
  try {
    const body: unknown = JSON.parse(text);
    if (typeof body === 'object' && body !== null && typeof (body as { error?: unknown }).error === 'string') {
      return (body as { error: string }).error;
    }
  } catch {
    // not the endpoint's JSON: the status says enough
  }
  return `the server answered ${res.status}`;
}

async function append(entry: ReviewLogEntry): Promise<void> {
  // A same-origin POST carries this page's Origin, which the server requires (a form elsewhere cannot send JSON).
  const res = await fetch(SERVED_REVIEWS_URL, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(entry),
  });
  if (!res.ok) throw new Error(await refusal(res));
}

async function stored(digest: string): Promise<ReadonlyMap<string, Review>> {
  const page = await fetchPage(digest);
  if (page === null) throw new Error('the server no longer keeps reviews');
  return foldReviewLog(page.entries).get(digest) ?? new Map();
}

const removal = (digest: string, r: Pick<Review, 'rollout_id' | 'attempt_id'>, by: string): ReviewLogEntry => ({
  op: 'remove',
  digest,
  rollout_id: r.rollout_id,
  attempt_id: r.attempt_id,
  reviewer: by,
  timestamp: new Date().toISOString(),
});

/**
 * The review store of a run served by `trajscope view`, or null when the page is not served so (a static
 * host, `npm start`, `view` of named files): asked once, by a GET of the log.
 */
export async function servedReviewDb(): Promise<ReviewDb | null> {
  const page = await fetchPage().catch(() => null);
  return page === null ? null : serverReviewDb();
}

/**
 * Counts of `put` are the log's as read just before writing; a clear compares with the log as read just
 * before it too, so a change another reviewer makes in between (milliseconds) can be removed with it. The
 * log keeps that change's entry all the same.
 */
function serverReviewDb(): ReviewDb {
  return {
    persistent: true,
    shared: true,
    list: async (digest) => [...(await stored(digest)).values()],
    async put(digest, reviews) {
      const seen = new Set((await stored(digest)).keys());
      let replaced = 0;
      // One at a time, in order: the log's order is the order the reviews were given.
      for (const r of reviews) {
        if (seen.has(reviewKey(r))) replaced++;
        seen.add(reviewKey(r));
        await append({ op: 'put', digest, ...r });
      }
      return { added: reviews.length - replaced, replaced };
    },
    remove: (digest, key, by = '') => append(removal(digest, key, by)),
    async removeIfUnchanged(digest, reviews, by = '') {
      const now = await stored(digest);
      let removed = 0;
      for (const r of reviews) {
        const current = now.get(reviewKey(r));
        if (!current || !sameReview(current, r)) continue;
        await append(removal(digest, r, by));
        removed++;
      }
      return removed;
    },
  };
}
