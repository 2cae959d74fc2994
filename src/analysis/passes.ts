/*
 * A pass over a whole rollout (every step, segment or finding) written as a generator: it yields now
 * and then, with how far it has got (0..1), so a page can run it in slices between frames
 * (src/load/slices.ts) while node, the tests and small rollouts run it through in one go. One body of
 * code for both: a rollout of a million steps is built by the same lines as one of ten.
 */

/** Yields progress fractions; returns the result. */
export type Pass<T> = Generator<number, T, void>;

/** Items a pass handles between two yields: small enough for a slice, large enough to cost nothing. */
export const PASS_CHUNK = 2048;

/** Runs a pass to its end at once. */
export function runPass<T>(pass: Pass<T>): T {
  for (;;) {
    const r = pass.next();
    if (r.done) return r.value;
  }
}

/** A pass whose result is already known: it returns `value` without yielding. */
// biome-ignore lint/correctness/useYield: a pass that has nothing left to do.
export function* settled<T>(value: T): Pass<T> {
  return value;
}

/** Runs `pass` inside another, its progress mapped onto `from..to` of the outer one's. */
export function* within<T>(pass: Pass<T>, from: number, to: number): Pass<T> {
  for (;;) {
    const r = pass.next();
    if (r.done) return r.value;
    yield from + r.value * (to - from);
  }
}
