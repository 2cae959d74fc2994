import { startTransition, useEffect, useState } from 'react';

/**
 * `value` handed to `count` consumers one at a time: each in a background render (a transition) of its own,
 * started once the one before has committed and its effects have run. Until its turn a consumer keeps the
 * value it had (`initial` at first).
 *
 * Why: recharts updates a chart's store in effects after each commit that gives it new data, and those
 * updates re-render the chart synchronously. The run page's eight later charts given new rows in one render
 * made one task of ~250 ms after that render's commit (after a filter, after each snapshot of a run being
 * read), and a click landing just then, opening a rollout, waited for all of it (issue 25). One chart per
 * render splits that into tasks of 6-20 ms a line chart (~50 ms for 800 bars), between which the page
 * answers. The Failure modes chart adds its lines the same way, one per render after its axes (a first
 * layout of the whole chart was a task of 51-155 ms).
 *
 * Turns go round from the consumer after the last one served, so a value that changes faster than a round
 * (snapshots while a run is read) still reaches every consumer. Nothing is handed over while `active` is
 * false (a page kept hidden); the round resumes when it is true again.
 */
export function useStaggered<T>(value: T, count: number, initial: T, active = true): readonly T[] {
  const [shown, setShown] = useState<{ values: readonly T[]; last: number }>({ values: [], last: -1 });
  const values = Array.from({ length: count }, (_, k) => (k < shown.values.length ? (shown.values[k] as T) : initial));
  const next = nextStale(values, value, shown.last);
  useEffect(() => {
    if (!active || next < 0) return;
    startTransition(() =>
      setShown((s) => ({
        values: Array.from({ length: Math.max(count, s.values.length) }, (_, k) =>
          k === next ? value : k < s.values.length ? (s.values[k] as T) : initial,
        ),
        last: next,
      })),
    );
  }, [active, next, value, count, initial]);
  return values;
}

/** The first consumer after `last` (going round) whose value is not `value`, or -1. */
export function nextStale<T>(values: readonly T[], value: T, last: number): number {
  for (let i = 1; i <= values.length; i++) {
    const k = (last + i) % values.length;
    if (values[k] !== value) return k;
  }
  return -1;
}
