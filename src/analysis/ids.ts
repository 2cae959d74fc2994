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

const prefixCache = new WeakMap<object, readonly number[]>();

/**
 * For each segment, how many leading ids of its input_ids equal the previous segment's input_ids +
 * generated_ids (0 for the first). Both the context check (W_CONTEXT_REWRITTEN) and the loader's compact
 * form need it, and it reads every context id, so it is computed once per record and remembered.
 */
export function sharedPrefixes(segments: readonly { input_ids: readonly number[]; generated_ids: readonly number[] }[]): readonly number[] {
  const cached = prefixCache.get(segments);
  if (cached) return cached;
  const out = segments.map((seg, i) => {
    const prev = segments[i - 1];
    if (!prev) return 0;
    const head = prev.input_ids;
    const tail = prev.generated_ids;
    const input = seg.input_ids;
    const limit = Math.min(input.length, head.length + tail.length);
    let k = 0;
    const h = Math.min(limit, head.length);
    while (k < h && input[k] === head[k]) k++;
    if (k === head.length) while (k < limit && input[k] === tail[k - head.length]) k++;
    return k;
  });
  prefixCache.set(segments, out);
  return out;
}
