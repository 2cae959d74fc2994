import { queryOptions } from '@tanstack/react-query';
import { type Review, type ReviewKey, reviewKey } from '../../format';
import { reviewDb } from './reviewDb';

export interface StoredReviews {
  reviews: ReadonlyMap<ReviewKey, Review>;
  /** False when the browser refused IndexedDB and reviews live only in this tab. */
  persistent: boolean;
  /** True when they are kept in the run `trajscope view` serves (.trajscope/reviews.jsonl), for everyone who opens it. */
  shared: boolean;
}

/** The reviews stored for one file's content digest; changed only through the review hooks (state/reviews). */
export function reviewsOptions(digest: string | null) {
  return queryOptions({
    queryKey: ['reviews', digest] as const,
    queryFn: async (): Promise<StoredReviews> => {
      if (digest === null) throw new Error('no digest');
      const db = await reviewDb();
      const reviews = new Map((await db.list(digest)).map((r) => [reviewKey(r), r]));
      return { reviews, persistent: db.persistent, shared: db.shared };
    },
    staleTime: Number.POSITIVE_INFINITY,
    // A Map is not a plain object: sharing would compare nothing and copy nothing.
    structuralSharing: false,
    enabled: digest !== null,
  });
}
