import { logprobsRecorded, type Rollout } from '../format';
import { describePositions, finding } from './finding';
import { sharedPrefixes } from './ids';
import { classifyRewrite, describeRewrite, type TokenText } from './rewrite';
import { recordTokenText } from './tokens';
import type { Finding } from './types';

/**
 * W_PLACEHOLDER_LOGPROBS thresholds. All exactly 0 is impossible for 2 sampled tokens at temperature > 0
 * unless a constrained sampler forced them; one value repeated over 8 tokens (nonzero) is what a writer that
 * filled the array with a constant leaves, and far below what chance gives a real distribution.
 */
const PLACEHOLDER_ZERO_MIN = 2;
const PLACEHOLDER_SAME_MIN = 8;

/**
 * Why a segment's `old_logprobs` look written by a placeholder rather than a sampler, or null. Only a
 * complete array counts (a length mismatch is E_LOGPROB_LENGTH already).
 */
function placeholderLogprobs(record: Rollout, lps: readonly number[], n: number): string | null {
  if (lps.length !== n || n < PLACEHOLDER_ZERO_MIN) return null;
  const first = lps[0] as number;
  if (!lps.every((lp) => lp === first)) return null;
  const t = record.sampling?.temperature;
  const constrained = record.sampling?.constrained;
  if (first === 0) {
    // Greedy decoding or an unknown temperature can report 0; a constrained sampler can force every token.
    if (t === undefined || t <= 0 || (constrained !== undefined && constrained !== false)) return null;
    return `all ${n} old_logprobs are exactly 0 at sampling.temperature ${t}: a sampled token has probability 1 only when nothing else could be drawn`;
  }
  if (n < PLACEHOLDER_SAME_MIN) return null;
  return `all ${n} old_logprobs are the same value ${first}: a sampler does not give every token one probability`;
}

/** Per-segment checks: array lengths, logprob range, placeholders, context continuity, cut generations. */
export function segmentFindings(record: Rollout, tokenText?: (record: Rollout) => TokenText | null): Finding[] {
  let text: TokenText | null | undefined;
  // Decoded only when a rewrite needs a reason: the record's own token strings, or the caller's tokenizer.
  const why = (i: number): string => {
    const prev = record.segments[i - 1];
    const cur = record.segments[i];
    if (!prev || !cur) return '';
    text ??= tokenText?.(record) ?? recordTokenText(record, null);
    const c = text && classifyRewrite([...prev.input_ids, ...prev.generated_ids], cur.input_ids, text);
    return c ? `: ${describeRewrite(c)}` : '';
  };
  const out: Finding[] = [];
  const maxNew = record.sampling?.max_new_tokens;
  const prefixes = sharedPrefixes(record.segments);
  record.segments.forEach((seg, i) => {
    const at = { segment: i };
    const n = seg.generated_ids.length;
    // Token ids without log-probabilities, as the source recorded them: nothing to compare, not a defect.
    const unrecorded = seg.old_logprobs.length === 0 && !logprobsRecorded(seg);
    if (seg.old_logprobs.length !== n && !unrecorded) {
      out.push(finding('E_LOGPROB_LENGTH', `segment ${i}: ${seg.old_logprobs.length} old_logprobs for ${n} generated_ids`, at));
    }
    const above: number[] = [];
    seg.old_logprobs.forEach((lp, j) => {
      if (lp > 0) above.push(j);
    });
    if (above.length > 0) {
      const first = above[0] ?? 0;
      out.push(
        finding(
          'E_LOGPROB_RANGE',
          `segment ${i}: old_logprobs above 0 at ${describePositions(above, 'token')}; e.g. ${seg.old_logprobs[first]} at ${first}`,
          at,
        ),
      );
    }
    const placeholder = placeholderLogprobs(record, seg.old_logprobs, n);
    if (placeholder)
      out.push(finding('W_PLACEHOLDER_LOGPROBS', `segment ${i}: ${placeholder}; they are no evidence of the behaviour policy`, at));
    if (seg.loss_mask && seg.loss_mask.length !== n) {
      out.push(finding('E_MASK_LENGTH', `segment ${i}: loss_mask has ${seg.loss_mask.length} entries for ${n} generated_ids`, at));
    }
    if (seg.input_tokens && seg.input_tokens.length !== seg.input_ids.length) {
      out.push(
        finding('E_TOKEN_TEXT_LENGTH', `segment ${i}: ${seg.input_tokens.length} input_tokens for ${seg.input_ids.length} input_ids`, at),
      );
    }
    if (seg.generated_tokens && seg.generated_tokens.length !== n) {
      out.push(finding('E_TOKEN_TEXT_LENGTH', `segment ${i}: ${seg.generated_tokens.length} generated_tokens for ${n} generated_ids`, at));
    }
    const prev = record.segments[i - 1];
    if (prev && (prefixes[i] ?? 0) < prev.input_ids.length + prev.generated_ids.length) {
      out.push(
        finding(
          'W_CONTEXT_REWRITTEN',
          `segment ${i}: input_ids does not begin with segment ${i - 1}'s input_ids + generated_ids; earlier context was dropped or changed${why(i)}`,
          at,
        ),
      );
    }
    if (maxNew !== undefined && n === maxNew) {
      out.push(
        finding('W_HIT_MAX_TOKENS', `segment ${i}: generated exactly max_new_tokens (${maxNew}) tokens; the generation was cut`, at),
      );
    }
  });
  return out;
}
