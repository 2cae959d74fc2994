import type { Rollout, Segment } from '../format';

/** A maximal run of positions with the same loss-mask value. */
export interface MaskSpan {
  start: number;
  end: number;
  trained: boolean;
}

function spans(values: ArrayLike<number>): MaskSpan[] {
  const out: MaskSpan[] = [];
  for (let i = 0; i < values.length; i++) {
    const trained = values[i] === 1;
    const last = out[out.length - 1];
    if (last && last.trained === trained) last.end = i + 1;
    else out.push({ start: i, end: i + 1, trained });
  }
  return out;
}

/** The segment's own loss mask over `generated_ids`; absent means every generated token is trained. */
export function segmentMask(seg: Segment): number[] {
  return seg.loss_mask ?? seg.generated_ids.map(() => 1);
}

/** Loss-mask spans over a segment's generated tokens. */
export function segmentMaskSpans(seg: Segment): MaskSpan[] {
  return spans(segmentMask(seg));
}

/** Loss-mask spans over the trainer's packed sequence, or null when there is no training record. */
export function trainingMaskSpans(record: Rollout): MaskSpan[] | null {
  return record.training ? spans(record.training.loss_mask) : null;
}

/** What a position of the training sequence holds, as far as the record can tell. */
export type PositionRole =
  | { kind: 'generated'; segment: number; index: number; trainable: boolean }
  | { kind: 'context' }
  | { kind: 'after' };

/**
 * Role of each position in the training sequence: a segment's generated token (positions
 * len(input_ids) .. len(input_ids)+len(generated_ids)-1 of that segment), context (prompt, tool
 * observations), or after the last generation (padding or trailing text). Where ranges overlap (a later
 * segment's context was rewritten shorter) the later segment wins, unless only the earlier one trains
 * the token: §7 allows a 1 at a position that is generated with mask 1 by *some* segment.
 */
export function trainingRoles(record: Rollout): PositionRole[] {
  const n = record.training?.sequence_ids.length ?? 0;
  const roles: PositionRole[] = new Array(n);
  let lastEnd = 0;
  record.segments.forEach((seg, si) => {
    const mask = segmentMask(seg);
    const start = seg.input_ids.length;
    for (let j = 0; j < seg.generated_ids.length && start + j < n; j++) {
      const trainable = mask[j] === 1;
      const earlier = roles[start + j];
      if (!trainable && earlier?.kind === 'generated' && earlier.trainable) continue;
      roles[start + j] = { kind: 'generated', segment: si, index: j, trainable };
    }
    lastEnd = Math.max(lastEnd, start + seg.generated_ids.length);
  });
  for (let i = 0; i < n; i++) roles[i] ??= i < lastEnd ? { kind: 'context' } : { kind: 'after' };
  return roles;
}

/**
 * The one-position shift of autoregressive training: the logits at position t-1 predict the token at
 * position t, so the first token of a sequence is predicted by nothing.
 */
export function predictedFrom(position: number): number | null {
  return position > 0 ? position - 1 : null;
}
