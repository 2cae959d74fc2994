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

/**
 * How many of a generation's visible messages the model had already seen: the longest run at the start
 * that equals the previous generation's context followed by the message it produced. A view folds those
 * and shows what is new, as the token view folds kept tokens (issue 31: every step started again at the
 * system prompt). `rewritten` is true when less than the whole previous context survives (a summary, a
 * truncation): the fold then says so rather than calling the rest new.
 */
export function messagesSeenBefore(record: Rollout, segment: number): { seen: number; rewritten: boolean } {
  const now = visibleMessages(record, segment);
  if (segment === 0 || !now) return { seen: 0, rewritten: false };
  const prev = record.segments[segment - 1];
  const before = prev ? visibleMessages(record, segment - 1) : null;
  if (!prev || !before) return { seen: 0, rewritten: false };
  const index = transcriptIndex(prev);
  const produced = index === undefined ? undefined : recordTranscript(record)?.[index];
  const expected = produced ? [...before, produced] : before;
  let seen = 0;
  while (seen < now.length && seen < expected.length && sameMessage(now[seen], expected[seen])) seen++;
  return { seen, rewritten: seen < before.length };
}

function sameMessage(a: TranscriptMessage | undefined, b: TranscriptMessage | undefined): boolean {
  if (a === b) return true;
  if (!a || !b) return false;
  return a.role === b.role && a.content === b.content && JSON.stringify(a.tool_calls ?? null) === JSON.stringify(b.tool_calls ?? null);
}
