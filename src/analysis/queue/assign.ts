/** A queue item with the reviewers it is given to. */
export type Assigned<T> = T & { reviewers: string[] };

/**
 * Gives each item to `overlap` reviewers, round robin over the queue's order: item i goes to reviewers
 * i*overlap ... i*overlap + overlap - 1 (mod their number). Every reviewer gets the same number of
 * items, give or take one, and the tiers (disagreements first) are spread over everyone alike. An
 * overlap above one gives an item to several reviewers, which agreement between reviewers needs.
 * Throws a RangeError naming what is wrong (no reviewers, a name twice, an overlap out of range).
 */
export function assignReviewers<T extends object>(items: readonly T[], reviewers: readonly string[], overlap = 1): Assigned<T>[] {
  if (reviewers.length === 0) throw new RangeError('reviewers: name at least one');
  if (new Set(reviewers).size !== reviewers.length) throw new RangeError('reviewers: a name is given twice');
  if (!Number.isSafeInteger(overlap) || overlap < 1 || overlap > reviewers.length) {
    throw new RangeError(`overlap must be a whole number from 1 to the number of reviewers (${reviewers.length}), got ${overlap}`);
  }
  return items.map((item, i) => ({
    ...item,
    reviewers: Array.from({ length: overlap }, (_, j) => reviewers[(i * overlap + j) % reviewers.length] as string),
  }));
}
