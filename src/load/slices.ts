import type { Pass } from '../analysis';

/*
 * Runs a whole-rollout pass (src/analysis/passes.ts) on the page in slices: a slice runs until its
 * budget is spent, then the page gets the thread back (input, a frame, a progress note) before the next.
 * Issue 18's target is no main-thread task over 50 ms; a slice of 12 ms leaves room for the frame and
 * for the chunk of work that overran it.
 */

/** How long one slice may run, in ms. */
export const SLICE_MS = 12;

interface SliceOptions {
  /** Called after each slice with the pass's progress (0..1). */
  onProgress?: (done: number) => void;
  /** Stops the pass between slices: the promise rejects with the signal's reason. */
  signal?: AbortSignal;
  /** How long one slice may run, in ms (SLICE_MS): less for work that should never hold back a frame. */
  sliceMs?: number;
}

type Yielder = () => Promise<void>;

/** Gives the thread back: `scheduler.yield()` where the browser has it (Chromium), else a macrotask. */
const yieldToPage: Yielder = (() => {
  const scheduler = (globalThis as { scheduler?: { yield?: () => Promise<void> } }).scheduler;
  if (typeof scheduler?.yield === 'function') return () => scheduler.yield?.() ?? Promise.resolve();
  return () => new Promise<void>((resolve) => setTimeout(resolve, 0));
})();

/**
 * Runs `pass` to its end in slices of about SLICE_MS; the result of `runPass(pass)`. The first slice
 * too runs after the thread was given back once, so a caller in a render is not charged a slice.
 */
export async function runInSlices<T>(pass: Pass<T>, { onProgress, signal, sliceMs = SLICE_MS }: SliceOptions = {}): Promise<T> {
  for (;;) {
    await yieldToPage();
    signal?.throwIfAborted();
    const until = performance.now() + sliceMs;
    let progress = 0;
    for (;;) {
      const r = pass.next();
      if (r.done) return r.value;
      progress = r.value;
      if (performance.now() >= until) break;
    }
    onProgress?.(progress);
  }
}
