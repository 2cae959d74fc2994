import { useSyncExternalStore } from 'react';
import type { LoadProgress } from './lintSources';

// Progress is transient and per load, so it lives beside the loader rather than in the query cache
// (which holds only finished results) or the UI store (which holds only what the person chose).
const current = new Map<string, LoadProgress>();
const listeners = new Set<() => void>();
const lastNotified = new Map<string, number>();

/**
 * Repaint at most this often: a large file delivers thousands of chunks, and every repaint takes the
 * page's thread from the load (which shares the machine's cores with it).
 */
const NOTIFY_EVERY_MS = 250;

export function setLoadProgress(key: string, progress: LoadProgress | null): void {
  const t = Date.now();
  if (progress === null) {
    current.delete(key);
    lastNotified.delete(key);
  } else {
    current.set(key, progress);
    if (progress.current !== '' && t - (lastNotified.get(key) ?? 0) < NOTIFY_EVERY_MS) return;
    lastNotified.set(key, t);
  }
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The latest progress of the load with this key, or null before the first chunk. */
export function useLoadProgress(key: string): LoadProgress | null {
  return useSyncExternalStore(subscribe, () => current.get(key) ?? null);
}
