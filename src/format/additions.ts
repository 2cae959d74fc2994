import type { Rollout, Segment } from './schema';
import { lazily, z } from './zod';

/*
 * Fields Trajscope's adapters add to rollouts converted from other tools (docs/adr/0004): a generation's
 * text, the conversation, the messages a call saw, several calls of one generation. They are not part of
 * format v1, so in a v1 file they are unknown fields like any other: kept and shown, never an error.
 * Views and checks read them only through these functions, and only when they have the adapters' shape.
 */

/** The schema of a converted rollout's messages, built on first use (a lines worker never needs it). */
const messagesSchema = lazily(() => {
  const transcriptToolCallSchema = z.looseObject({
    id: z.string().optional(),
    name: z.string().optional(),
    /** The arguments exactly as the model emitted them (usually JSON text, not always valid). */
    arguments: z.string().optional(),
  });

  /** One chat message: `content` is its text (null when the source had none). */
  const transcriptMessageSchema = z.looseObject({
    role: z.string(),
    content: z.string().nullable().optional(),
    reasoning: z.string().optional(),
    name: z.string().optional(),
    tool_call_id: z.string().optional(),
    tool_calls: z.array(transcriptToolCallSchema).optional(),
  });

  return z.array(transcriptMessageSchema);
});

export type TranscriptMessage = z.infer<ReturnType<typeof messagesSchema>>[number];

/** Validated message lists by the array they came from: a view asks on every render. */
const checkedMessages = new WeakMap<object, TranscriptMessage[] | null>();

function messages(value: unknown): TranscriptMessage[] | undefined {
  if (!Array.isArray(value)) return undefined;
  let checked = checkedMessages.get(value);
  if (checked === undefined) {
    const parsed = messagesSchema().safeParse(value);
    checked = parsed.success ? parsed.data : null;
    checkedMessages.set(value, checked);
  }
  return checked ?? undefined;
}

type Fields = Record<string, unknown>;

/** The generation as text (a segment converted from a tool that records no token ids). */
export function segmentText(seg: Segment): string | undefined {
  const v = (seg as Fields).text;
  return typeof v === 'string' ? v : undefined;
}

/** Index in the rollout's transcript of the message this generation produced. */
export function transcriptIndex(seg: Segment): number | undefined {
  const v = (seg as Fields).transcript_index;
  return typeof v === 'number' && Number.isSafeInteger(v) && v >= 0 ? v : undefined;
}

/** The exact messages this generation saw, when the source recorded them per call. */
export function contextMessages(seg: Segment): TranscriptMessage[] | undefined {
  return messages((seg as Fields).context_messages);
}

/** The rollout's conversation, in order. */
export function recordTranscript(record: Rollout): TranscriptMessage[] | undefined {
  return messages((record as Fields).transcript);
}

/**
 * Every tool call a generation made: `tool_call_ids` when it lists several and begins with the segment's
 * `tool_call_id` (as the adapters write it), else the one `tool_call_id`, else none.
 */
export function segmentCallIds(seg: Segment): string[] {
  const own = seg.tool_call_id == null ? [] : [seg.tool_call_id];
  const v = (seg as Fields).tool_call_ids;
  const listed = Array.isArray(v) && v.length > 0 && v.every((x) => typeof x === 'string') && v[0] === seg.tool_call_id;
  return listed ? (v as string[]) : own;
}

/**
 * False when the adapter recorded that the source has token ids but no behaviour log-probabilities for
 * this generation (Atropos without `inference_logprobs`, an ATIF step without `logprobs`): `old_logprobs`
 * is then `[]` because nothing was recorded, not because the file is inconsistent.
 */
export function logprobsRecorded(seg: Segment): boolean {
  return (seg as Fields).old_logprobs_recorded !== false;
}

/** A step or segment whose `tool_call_id` is the record's location, given where the source recorded no id. */
export function callIdIsLocator(value: object): boolean {
  return (value as Fields).tool_call_id_is_locator === true;
}
