/** Small helpers over token-id arrays, shared by the context and training checks. */

/** Length of the common prefix of `a` and `b`. */
export function commonPrefix(a: readonly number[], b: readonly number[]): number {
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i < n && a[i] === b[i]) i++;
  return i;
}

/** Whether `seq` begins with `head` followed by `tail`, without building the concatenation. */
export function startsWithPair(seq: readonly number[], head: readonly number[], tail: readonly number[]): boolean {
  if (seq.length < head.length + tail.length) return false;
  for (let i = 0; i < head.length; i++) if (seq[i] !== head[i]) return false;
  for (let i = 0; i < tail.length; i++) if (seq[head.length + i] !== tail[i]) return false;
  return true;
}

/** First position at which `seq` departs from `head` + `tail`, or null when it begins with both. */
export function firstMismatch(seq: readonly number[], head: readonly number[], tail: readonly number[]): number | null {
  const total = head.length + tail.length;
  for (let i = 0; i < total; i++) {
    const want = i < head.length ? head[i] : tail[i - head.length];
    if (i >= seq.length || seq[i] !== want) return i;
  }
  return null;
}

export { sharedPrefixes } from '../format';
