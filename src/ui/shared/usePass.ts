import { type DependencyList, startTransition, useEffect, useMemo, useState } from 'react';
import { type Pass, runPass } from '../../analysis';
import { runInSlices } from '../../load';

/**
 * The result of a whole-rollout pass: at once (in the render) when `sliced` is false, as for every
 * rollout before issue 18; else run in slices after the render, with how far it has got meanwhile.
 * `make` must make a new pass from what `deps` name.
 */
export function usePass<T>(make: () => Pass<T>, sliced: boolean, deps: DependencyList): { value: T | null; done: number } {
  // biome-ignore lint/correctness/useExhaustiveDependencies: the caller's deps name what make reads.
  const now = useMemo(() => (sliced ? null : runPass(make())), [sliced, ...deps]);
  // Each result remembers the deps it was made from: for a render between new deps and the effect that
  // starts their pass, the last result is not theirs.
  const [later, setLater] = useState<{ value: T | null; done: number; of: DependencyList | null }>({ value: null, done: 0, of: null });
  // biome-ignore lint/correctness/useExhaustiveDependencies: as above.
  useEffect(() => {
    if (!sliced) return;
    const stop = new AbortController();
    setLater({ value: null, done: 0, of: deps });
    runInSlices(make(), { signal: stop.signal, onProgress: (done) => setLater({ value: null, done, of: deps }) }).then(
      // The view the result makes renders in a transition: React yields to the page while it renders.
      (value) => startTransition(() => setLater({ value, done: 1, of: deps })),
      () => {},
    );
    return () => stop.abort();
  }, [sliced, ...deps]);
  if (!sliced) return { value: now, done: 1 };
  const current = later.of !== null && later.of.length === deps.length && later.of.every((d, i) => Object.is(d, deps[i]));
  return current ? { value: later.value, done: later.done } : { value: null, done: 0 };
}
