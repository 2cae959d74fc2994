import { SERVED_EVENTS_URL } from '../served';
import { reviewDb } from './reviewDb';

/*
 * Tabs of one browser share the review store (IndexedDB) but each holds its own copy in memory. After a
 * write, a tab says which file's reviews changed on this channel; the others read them again, so a
 * stale tab never shows, exports or clears reviews another tab has since changed (issue 18). When the
 * reviews are kept in a run served by `trajscope view` (docs/adr/0026), the server says the same to every
 * page of every browser (`event: reviews` on its event stream), this one's included.
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

/**
 * Calls `onChange` with the digest whenever another tab changed its reviews, or, when they are kept in
 * the served run, whenever anyone did; returns the unsubscribe.
 */
export function onReviewChange(onChange: (digest: string) => void): () => void {
  // A channel of its own: a BroadcastChannel does not hear its own messages, and this page's writer may share one.
  const listener = typeof BroadcastChannel === 'undefined' ? null : new BroadcastChannel(CHANNEL);
  if (listener) {
    listener.onmessage = (e: MessageEvent<ReviewChange>) => {
      if (e.data?.type === 'reviews-changed' && typeof e.data.digest === 'string') onChange(e.data.digest);
    };
  }
  const leaveServer = onServedReviewChange(onChange);
  return () => {
    listener?.close();
    leaveServer();
  };
}

/** Listens to the view server's `event: reviews` (data: the digest) once the store is known to be the run's. */
function onServedReviewChange(onChange: (digest: string) => void): () => void {
  let left = false;
  let events: EventSource | null = null;
  void reviewDb().then((db) => {
    if (left || !db.shared || typeof EventSource === 'undefined') return;
    events = new EventSource(SERVED_EVENTS_URL);
    events.addEventListener('reviews', (ev: MessageEvent<string>) => {
      if (typeof ev.data === 'string' && ev.data.startsWith('sha256:')) onChange(ev.data);
    });
  });
  return () => {
    left = true;
    events?.close();
  };
}
