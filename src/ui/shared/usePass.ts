import { type DependencyList, startTransition, useEffect, useMemo, useState } from 'react';
import { type Pass, runPass } from '../../analysis';
import { runInSlices } from '../../load';
import { afterPaint as onceDrawn } from './afterPaint';

export interface PassTiming {
  /** Start the slices in a task after the next frame is painted, not right after the commit: what the render drew shows first. */
  afterPaint?: boolean;
  /** A slice's length in ms (runInSlices' default when not given). */
  sliceMs?: number;
  /** Re-render after each slice with how far the pass got (for a progress bar); without it, only its result renders. */
  progress?: boolean;
}

/**
 * The result of a whole-rollout pass: at once (in the render) when `sliced` is false, as for every
 * rollout before issue 18; else run in slices after the render, with how far it has got meanwhile.
 * `make` must make a new pass from what `deps` name.
 */
export function usePass<T>(
  make: () => Pass<T>,
  sliced: boolean,
  deps: DependencyList,
  { afterPaint = false, sliceMs, progress = true }: PassTiming = {},
): { value: T | null; done: number } {
  // biome-ignore lint/correctness/useExhaustiveDependencies: the caller's deps name what make reads.
  const now = useMemo(() => (sliced ? null : runPass(make())), [sliced, ...deps]);
  // Each result remembers the deps it was made from: for a render between new deps and the effect that
  // starts their pass, or while that pass runs, the last result is not theirs and is not returned.
  const [later, setLater] = useState<{ value: T | null; done: number; of: DependencyList | null }>({ value: null, done: 0, of: null });
  // biome-ignore lint/correctness/useExhaustiveDependencies: as above.
  useEffect(() => {
    if (!sliced) return;
    const stop = new AbortController();
    const onProgress = progress ? (done: number) => setLater({ value: null, done, of: deps }) : undefined;
    const start = () =>
      runInSlices(make(), { signal: stop.signal, sliceMs, onProgress }).then(
        // The view the result makes renders in a transition: React yields to the page while it renders.
        (value) => startTransition(() => setLater({ value, done: 1, of: deps })),
        () => {},
      );
    const cancel = afterPaint ? onceDrawn(start) : null;
    if (!afterPaint) start();
    return () => {
      cancel?.();
      stop.abort();
    };
  }, [sliced, ...deps]);
  if (!sliced) return { value: now, done: 1 };
  const current = later.of !== null && later.of.length === deps.length && later.of.every((d, i) => Object.is(d, deps[i]));
  return current ? { value: later.value, done: later.done } : { value: null, done: 0 };
}
