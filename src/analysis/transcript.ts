import type { Rollout, Segment, TranscriptMessage } from '../format';

/**
 * A generation recorded as text only: converted from a tool that keeps what was said, not token ids
 * (docs/formats.md). Such a segment has no ids to decode, train or check; views show its text instead.
 */
export function isTextOnly(seg: Segment): boolean {
  return seg.input_ids.length === 0 && seg.generated_ids.length === 0 && (seg.text !== undefined || seg.transcript_index !== undefined);
}

/**
 * The messages the model saw before a text-only generation: the segment's own `context_messages` when the
 * source recorded them per call, else the transcript up to the message this generation produced.
 * Null when the record says nothing about it.
 */
export function visibleMessages(record: Rollout, segment: number): TranscriptMessage[] | null {
  const seg = record.segments[segment];
  if (!seg) return null;
  if (seg.context_messages) return seg.context_messages;
  if (record.transcript && seg.transcript_index !== undefined) return record.transcript.slice(0, seg.transcript_index);
  return null;
}
