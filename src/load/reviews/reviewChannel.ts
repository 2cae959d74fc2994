/*
 * Tabs of one browser share the review store (IndexedDB) but each holds its own copy in memory. After a
 * write, a tab says which file's reviews changed on this channel; the others read them again, so a
 * stale tab never shows, exports or clears reviews another tab has since changed (issue 18).
 */

const CHANNEL = 'trajscope-reviews';

interface ReviewChange {
  type: 'reviews-changed';
  digest: string;
}

let channel: BroadcastChannel | null | undefined;

function open(): BroadcastChannel | null {
  if (channel === undefined) channel = typeof BroadcastChannel === 'undefined' ? null : new BroadcastChannel(CHANNEL);
  return channel;
}

/** Tells the other tabs that the reviews of one content digest changed (this tab does not hear it). */
export function announceReviewChange(digest: string): void {
  open()?.postMessage({ type: 'reviews-changed', digest } satisfies ReviewChange);
}

/** Calls `onChange` with the digest whenever another tab changed its reviews; returns the unsubscribe. */
export function onReviewChange(onChange: (digest: string) => void): () => void {
  // A channel of its own: a BroadcastChannel does not hear its own messages, and this page's writer may share one.
  const listener = typeof BroadcastChannel === 'undefined' ? null : new BroadcastChannel(CHANNEL);
  if (!listener) return () => {};
  listener.onmessage = (e: MessageEvent<ReviewChange>) => {
    if (e.data?.type === 'reviews-changed' && typeof e.data.digest === 'string') onChange(e.data.digest);
  };
  return () => listener.close();
}
