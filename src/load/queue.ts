import { queryOptions, useQueries, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { foldReviewsByReviewer, type ReviewerLogEntry } from '../analysis';
import { parseReviewLogPage, parseReviewQueue, REVIEW_QUEUE_PATH, type Review, type ReviewQueue } from '../format';
import { reviewDb } from './reviews/reviewDb';

/*
 * The review queue (docs/review-queue.md) on the page: the one `trajscope view DIR` serves from
 * DIR/.trajscope/review-queue.json (GET /api/queue), or a queue file the person opens (a static host,
 * `npm start`). Either is held in the query cache under one key, for the page's life.
 */

const SERVED_QUEUE_URL = '/api/queue';

export interface LoadedQueue {
  queue: ReviewQueue;
  /** Where it came from: the run's queue path, or the name of the file opened. */
  from: string;
}

/** The server's own words for a refusal (`{ error }`), else its status. */
async function refusal(res: Response): Promise<string> {
  try {
    const body: unknown = await res.json();
    if (typeof body === 'object' && body !== null && typeof (body as { error?: unknown }).error === 'string')
      return (body as { error: string }).error;
  } catch {
    // not the endpoint's JSON
  }
  return `the server answered ${res.status}`;
}

/** The served run's queue; null when there is none, or no `view` that keeps one (a static host answers its page). */
async function servedQueue(): Promise<LoadedQueue | null> {
  const res = await fetch(SERVED_QUEUE_URL, { headers: { Accept: 'application/json' }, cache: 'no-store' });
  if (res.status === 404) return null;
  if (!(res.headers.get('content-type') ?? '').includes('application/json')) return null;
  if (!res.ok) throw new Error(await refusal(res));
  return { queue: parseReviewQueue(await res.text()), from: REVIEW_QUEUE_PATH };
}

function reviewQueueOptions() {
  return queryOptions({
    queryKey: ['review-queue'] as const,
    queryFn: servedQueue,
    staleTime: Number.POSITIVE_INFINITY,
    // Kept while the page lives: an opened file is nowhere else, and leaving the page to review an item unmounts it.
    gcTime: Number.POSITIVE_INFINITY,
    retry: false,
  });
}

interface ReviewQueueState {
  loaded: LoadedQueue | null;
  isPending: boolean;
  /** Why the served queue could not be read (a bad field, a refused link), or null. */
  error: string | null;
}

export function useReviewQueue(): ReviewQueueState {
  const q = useQuery(reviewQueueOptions());
  return { loaded: q.data ?? null, isPending: q.isPending, error: q.error ? (q.error as Error).message : null };
}

/** Opens a queue file chosen by the person in place of any other; rejects with what is wrong with it (the field). */
export function useOpenQueueFile(): (file: File) => Promise<void> {
  const client = useQueryClient();
  return useCallback(
    async (file: File) => {
      const queue = parseReviewQueue(await file.text());
      const loaded: LoadedQueue = { queue, from: file.name };
      client.setQueryData(reviewQueueOptions().queryKey, loaded);
    },
    [client],
  );
}

/**
 * Every reviewer's standing review of one file's rollouts (the run's shared log folded per reviewer, as
 * agreement folds it), where the review store keeps only the latest per rollout: with an overlap, two
 * reviewers' reviews of one item both count. Under the `reviews` key of that digest, so whatever makes the
 * page read the file's reviews again (another reviewer's change, announced by the server) reads these too.
 */
function reviewsByReviewerOptions(digest: string | null, enabled: boolean) {
  return queryOptions({
    queryKey: ['reviews', digest, 'by-reviewer'] as const,
    queryFn: async (): Promise<Review[]> => {
      if (digest === null) throw new Error('no digest');
      const db = await reviewDb();
      if (!db.shared) return db.list(digest);
      const res = await fetch(`/api/reviews?digest=${encodeURIComponent(digest)}`, {
        headers: { Accept: 'application/json' },
        cache: 'no-store',
      });
      if (!res.ok) throw new Error(await refusal(res));
      const page = parseReviewLogPage(await res.text());
      if (page === null) throw new Error('the server no longer keeps reviews');
      const entries: ReviewerLogEntry[] = page.entries.map((e) =>
        e.op === 'remove'
          ? { op: 'remove', digest: e.digest, review: { rollout_id: e.rollout_id, attempt_id: e.attempt_id, reviewer: e.reviewer } }
          : { op: 'put', digest: e.digest, review: (({ op: _op, digest: _d, ...review }) => review)(e) },
      );
      return foldReviewsByReviewer(entries);
    },
    staleTime: Number.POSITIVE_INFINITY,
    enabled: enabled && digest !== null,
  });
}

/** One stable function: the same array comes back while no result changed, a steady dependency for the page's memos. */
const dataOf = (results: { data?: Review[] }[]): (readonly Review[] | undefined)[] => results.map((q) => q.data);

/** Every reviewer's standing reviews of each digest given (read only while `enabled`), in the digests' order. */
export function useReviewsByReviewer(digests: readonly string[], enabled: boolean): (readonly Review[] | undefined)[] {
  return useQueries({
    queries: digests.map((d) => reviewsByReviewerOptions(d, enabled)),
    combine: dataOf,
  });
}
