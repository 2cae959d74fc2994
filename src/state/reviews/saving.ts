import { useSyncExternalStore } from 'react';

/*
 * Review writes the store has not kept yet. A mark shows at once (the cache is updated first), but it is
 * kept only once IndexedDB's transaction completes; until then the panel says "saving…", not "saved", so a
 * reader who reloads or closes the tab on "saved" loses nothing.
 */

const pending = new Map<string, number>();
const listeners = new Set<() => void>();

const idOf = (digest: string, key: string) => `${digest}\n${key}`;

function notify(): void {
  for (const l of listeners) l();
}

/** Counts `write` as pending for the review `key` of `digest` until it settles; returns it. */
export function trackWrite<T>(digest: string, key: string, write: Promise<T>): Promise<T> {
  const id = idOf(digest, key);
  pending.set(id, (pending.get(id) ?? 0) + 1);
  notify();
  const done = () => {
    const n = (pending.get(id) ?? 1) - 1;
    if (n > 0) pending.set(id, n);
    else pending.delete(id);
    notify();
  };
  write.then(done, done);
  return write;
}

/** Whether a write of that review is still on its way to the store. */
export function isSaving(digest: string | null, key: string): boolean {
  return digest !== null && pending.has(idOf(digest, key));
}

function subscribe(onChange: () => void): () => void {
  listeners.add(onChange);
  return () => listeners.delete(onChange);
}

/** `isSaving`, as a hook that renders again when it changes. */
export function useReviewSaving(digest: string | null, key: string): boolean {
  return useSyncExternalStore(subscribe, () => isSaving(digest, key));
}
