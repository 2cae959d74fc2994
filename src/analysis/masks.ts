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
 * The roles of the training sequence's positions (trainingRoles), read per position from two typed
 * arrays written only where a segment generated: a 100k-token record does not become 100k objects, and
 * its long context costs no write (the token view of such a rollout, issue 25).
 */
export interface TrainingPositions {
  /** The segment whose generation holds the position, or -1 (context, or after the last generation). */
  segmentAt(position: number): number;
  /** Whether that segment's own loss mask trains the token (false where no segment generated). */
  trainable(position: number): boolean;
  /** One past the last generated position of any segment: a position from here on is after them. */
  end: number;
}

/**
 * Role of each position in the training sequence: a segment's generated token (positions
 * len(input_ids) .. len(input_ids)+len(generated_ids)-1 of that segment), context (prompt, tool
 * observations), or after the last generation (padding or trailing text). Where ranges overlap (a later
 * segment's context was rewritten shorter) the later segment wins, unless only the earlier one trains
 * the token: §7 allows a 1 at a position that is generated with mask 1 by *some* segment.
 */
export function trainingPositions(record: Rollout): TrainingPositions {
  const n = record.training?.sequence_ids.length ?? 0;
  // The segment + 1, so that the zeros a new array starts with mean "none" and need no fill.
  const owner = new Int32Array(n);
  const trains = new Uint8Array(n);
  let end = 0;
  record.segments.forEach((seg, si) => {
    const mask = segmentMask(seg);
    const start = seg.input_ids.length;
    for (let j = 0; j < seg.generated_ids.length && start + j < n; j++) {
      const trained = mask[j] === 1;
      const p = start + j;
      if (!trained && owner[p] !== 0 && trains[p] === 1) continue;
      owner[p] = si + 1;
      trains[p] = trained ? 1 : 0;
    }
    end = Math.max(end, start + seg.generated_ids.length);
  });
  return { segmentAt: (p) => (owner[p] ?? 0) - 1, trainable: (p) => trains[p] === 1, end };
}

/** trainingPositions, one object a position: for a caller that reads a few or a short sequence. */
export function trainingRoles(record: Rollout): PositionRole[] {
  const at = trainingPositions(record);
  const n = record.training?.sequence_ids.length ?? 0;
  return Array.from({ length: n }, (_, i): PositionRole => {
    const si = at.segmentAt(i);
    if (si !== -1)
      return { kind: 'generated', segment: si, index: i - (record.segments[si]?.input_ids.length ?? 0), trainable: at.trainable(i) };
    return i < at.end ? { kind: 'context' } : { kind: 'after' };
  });
}

/**
 * The one-position shift of autoregressive training: the logits at position t-1 predict the token at
 * position t, so the first token of a sequence is predicted by nothing.
 */
export function predictedFrom(position: number): number | null {
  return position > 0 ? position - 1 : null;
}
