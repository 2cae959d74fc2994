import { classifyRewrite, previousSequence, type RewriteClass, type RewriteKind } from '../../analysis';
import type { Rollout } from '../../format';
import type { Decoder } from '../../load';

/** How each rewrite class is named on screen (the Steps view and the token view say the same words). */
export const REWRITE_WORDS: Record<RewriteKind, { label: string; meaning: string }> = {
  retokenized: {
    label: 'retokenized',
    meaning:
      'the earlier text is unchanged but its token ids differ: the context was re-rendered and re-tokenized, so the trained sequence is not the sampled one',
  },
  thinking_dropped: { label: 'thinking dropped', meaning: 'a <think>…</think> reasoning block of an earlier turn was left out' },
  compacted: { label: 'compacted', meaning: 'earlier text was removed or replaced (an observation elided, a summary)' },
  other: { label: 'other', meaning: 'no earlier text was removed, yet the context is not an append (text inserted or changed)' },
};

const cache = new WeakMap<Rollout, WeakMap<Decoder, Map<number, RewriteClass | null>>>();

/**
 * Why segment `segment`'s context does not extend the previous one, or null when it does or the ids
 * cannot be decoded yet. Computed once per record, decoder and segment (the Steps rows remount on scroll).
 */
export function rewriteReason(record: Rollout, segment: number, decoder: Decoder | null): RewriteClass | null {
  const cur = record.segments[segment];
  if (!decoder || decoder.source === 'none' || segment === 0 || !cur) return null;
  const byDecoder = cache.get(record) ?? new WeakMap<Decoder, Map<number, RewriteClass | null>>();
  cache.set(record, byDecoder);
  const bySegment = byDecoder.get(decoder) ?? new Map<number, RewriteClass | null>();
  byDecoder.set(decoder, bySegment);
  if (!bySegment.has(segment)) bySegment.set(segment, classifyRewrite(previousSequence(record, segment), cur.input_ids, decoder));
  return bySegment.get(segment) ?? null;
}

/** "tokens 519–595" / "token 12" / "nothing (at 519)": a span in words. */
export function spanWords(span: { start: number; end: number }): string {
  if (span.end <= span.start) return `nothing (at position ${span.start})`;
  return span.end - span.start === 1 ? `token ${span.start}` : `tokens ${span.start}–${span.end - 1}`;
}
