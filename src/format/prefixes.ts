/*
 * How much of each segment's context its predecessor already held. A segment's `input_ids` nearly always
 * begins with the previous segment's `input_ids` + `generated_ids`; reading that prefix reads every
 * context id, the bulk of a record. The fast schema check (fastCheck.ts) finds it in the same pass that
 * checks the ids (an id equal to an id already checked needs no check of its own), and the context check
 * (W_CONTEXT_REWRITTEN) and the loader's compact form read it from here.
 */

type Ids = readonly unknown[];
type Segments = readonly { input_ids: readonly number[]; generated_ids: readonly number[] }[];

const known = new WeakMap<object, readonly number[]>();

/** Leading entries of `input` equal to `head` + `tail`, compared one by one (the ids need not be checked yet). */
export function prefixLength(input: Ids, head: Ids, tail: Ids): number {
  const limit = Math.min(input.length, head.length + tail.length);
  let k = 0;
  const h = Math.min(limit, head.length);
  while (k < h && input[k] === head[k]) k++;
  if (k === head.length) while (k < limit && input[k] === tail[k - head.length]) k++;
  return k;
}

/** Remembers the prefixes found for a record's segments (by the array: records are never changed). */
export function rememberPrefixes(segments: object, prefixes: readonly number[]): void {
  known.set(segments, prefixes);
}

/** The prefixes remembered for these segments, if any (the fast check's, or an earlier count's). */
export function rememberedPrefixes(segments: object): readonly number[] | undefined {
  return known.get(segments);
}

/**
 * For each segment, how many leading ids of its input_ids equal the previous segment's input_ids +
 * generated_ids (0 for the first): computed once per record and remembered.
 */
export function sharedPrefixes(segments: Segments): readonly number[] {
  const cached = known.get(segments);
  if (cached) return cached;
  const out = segments.map((seg, i) => {
    const prev = segments[i - 1];
    return prev ? prefixLength(seg.input_ids, prev.input_ids, prev.generated_ids) : 0;
  });
  known.set(segments, out);
  return out;
}
