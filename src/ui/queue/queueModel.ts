import type { ReviewQueueItem } from '../../format';
import { type Review, reviewKey } from '../../load';

/** Each item's reviews by reviewer name. */
export type ItemReviews = ReadonlyMap<string, Review>[];

/**
 * Who has reviewed each queue item: every reviewer's standing review of its rollout in its file's
 * digest (`byDigest`: the run's log folded per reviewer, when the reviews are kept in the run), and over
 * it the review store's latest for the rollout (`standing`), which a key press changes at once.
 */
export function itemReviews(
  items: readonly ReviewQueueItem[],
  digests: readonly (string | null)[],
  standing: readonly (Review | undefined)[],
  byDigest: ReadonlyMap<string, readonly Review[]>,
): ItemReviews {
  const index = new Map<string, Review[]>();
  for (const [digest, reviews] of byDigest) {
    for (const r of reviews) {
      const key = `${digest}\n${reviewKey(r)}`;
      const list = index.get(key);
      if (list) list.push(r);
      else index.set(key, [r]);
    }
  }
  return items.map((item, i) => {
    const digest = digests[i] ?? null;
    const out = new Map<string, Review>();
    if (digest !== null) for (const r of index.get(`${digest}\n${reviewKey(item)}`) ?? []) out.set(r.reviewer, r);
    const latest = standing[i];
    if (latest) out.set(latest.reviewer, latest);
    return out;
  });
}

/** Why an item is in the queue, in words: `disagreement`, `scanner:a,b`, `stratum:pass`. */
export function reasonText(reason: string): string {
  if (reason === 'disagreement') return 'grader and regrade disagree';
  if (reason.startsWith('scanner:')) return `scanner: ${reason.slice('scanner:'.length).split(',').join(', ')}`;
  if (reason.startsWith('stratum:')) {
    const verdict = reason.slice('stratum:'.length);
    return verdict === 'none' ? 'sample: no verdict' : `sample: ${verdict}`;
  }
  return reason;
}

/** The reason's kind, for its badge's colour. */
export function reasonKind(reason: string): 'disagreement' | 'scanner' | 'sample' {
  return reason === 'disagreement' ? 'disagreement' : reason.startsWith('scanner:') ? 'scanner' : 'sample';
}
