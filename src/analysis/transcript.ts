import {
  contextMessages,
  type Rollout,
  recordTranscript,
  type Segment,
  segmentText,
  type TranscriptMessage,
  transcriptIndex,
} from '../format';

/**
 * A generation recorded as text only: converted from a tool that keeps what was said, not token ids
 * (docs/formats.md). Such a segment has no ids to decode, train or check; views show its text instead.
 */
export function isTextOnly(seg: Segment): boolean {
  return (
    seg.input_ids.length === 0 && seg.generated_ids.length === 0 && (segmentText(seg) !== undefined || transcriptIndex(seg) !== undefined)
  );
}

/** Every generation of the record is text only: it carries no token id at all, so there are none to show. */
export function isTextOnlyRecord(record: Rollout): boolean {
  return record.segments.length > 0 && record.segments.every(isTextOnly);
}

/**
 * The messages the model saw before a text-only generation: the segment's own `context_messages` when the
 * source recorded them per call, else the transcript up to the message this generation produced.
 * Null when the record says nothing about it.
 */
export function visibleMessages(record: Rollout, segment: number): TranscriptMessage[] | null {
  const seg = record.segments[segment];
  if (!seg) return null;
  const own = contextMessages(seg);
  if (own) return own;
  const transcript = recordTranscript(record);
  const index = transcriptIndex(seg);
  if (transcript && index !== undefined) return transcript.slice(0, index);
  return null;
}
