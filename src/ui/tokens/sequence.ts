import type { TokenSource } from '../../analysis';
import { formatCount } from '../../analysis';
import type { Rollout } from '../../format';

/** The `seq=` value of a selection: a segment index or 'training'. */
export type SeqValue = number | 'training';

export interface SequenceOption {
  value: SeqValue;
  label: string;
}

/** The sequences a record offers: the training sequence first when there is one, then every segment. */
export function sequenceOptions(record: Rollout): SequenceOption[] {
  const out: SequenceOption[] = [];
  if (record.training)
    out.push({ value: 'training', label: `Training sequence (${formatCount(record.training.sequence_ids.length)} tokens)` });
  record.segments.forEach((seg, i) => {
    out.push({ value: i, label: `Segment ${i} (${formatCount(seg.input_ids.length + seg.generated_ids.length)} tokens)` });
  });
  return out;
}

/**
 * The sequence to show for a `seq=` value: that one when the record has it, else the default: the
 * training sequence (what the trainer consumed) when present, else the last segment. Null when the
 * record has neither.
 */
export function resolveSequence(record: Rollout, seq: SeqValue | null): SeqValue | null {
  if (seq === 'training' && record.training) return 'training';
  if (typeof seq === 'number' && seq < record.segments.length) return seq;
  if (record.training) return 'training';
  return record.segments.length > 0 ? record.segments.length - 1 : null;
}

export function toSource(seq: SeqValue): TokenSource {
  return seq === 'training' ? { kind: 'training' } : { kind: 'segment', segment: seq };
}
