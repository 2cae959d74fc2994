import { convertMapped } from '../mapping/convert';
import type { FieldMapping } from '../mapping/schema';
import { MESSAGE_SHAPES, type MessageShape, toChatMessages } from '../mapping/shapes';
import { isRecord, type Json } from '../read';
import { type Convert, ConvertError } from '../types';
import { type Fact, findFields, STATUS_WORDS } from './fields';
import { findConversation } from './findConversation';

/*
 * The structural reader: the last reader tried, for files no adapter was written for (issue 24). It infers
 * a field mapping from a record's shape (where its conversation is and how its messages are written, and
 * which fields hold its reward, ids, status and prompt) and reads the record through that mapping, the one
 * `--map` takes, so what it inferred is one step from a mapping the user saves (`lint --print-map`) and a
 * second file of the tool reads exactly the same way. Every inference is named on the record.
 */

interface ShapeReading {
  mapping: FieldMapping;
  /** What was inferred and from where: `{conversation: "intermediate_steps", shape: "smolagents", reward: "score"}`. */
  inferred: Record<string, string>;
}

const MAPPED_FACTS: readonly Fact[] = ['reward', 'task_id', 'rollout_id', 'policy_version', 'prompt'];

/** The mapping a record's shape implies, or null when it holds no conversation with a model turn in it. */
function inferMapping(value: Json): ShapeReading | null {
  const conversation = findConversation(value);
  if (!conversation) return null;
  const items = conversation.path.split('.').reduce<unknown>((v, k) => (isRecord(v) ? v[k] : undefined), value);
  if (!Array.isArray(items)) return null;
  // A list of prompts (a data set, not a trajectory) has no model turn: that is not a rollout.
  const messages = toChatMessages(conversation.shape, items, '');
  if (!messages.some((m) => m.role === 'assistant')) return null;
  const fields = findFields(value, conversation.path);
  const inferred: Record<string, string> = { conversation: conversation.path, shape: conversation.shape };
  for (const fact of MAPPED_FACTS) if (fields[fact] !== undefined) inferred[fact] = fields[fact];
  if (fields.status !== undefined) inferred.termination = fields.status;
  const mapping = mappingOfInferred(inferred);
  return mapping ? { mapping, inferred } : null;
}

/**
 * The field mapping a record's `extra.read_by_shape` stands for: what `lint --print-map` prints and the page's
 * "Save as a mapping" offers, so a second file of the same tool reads the same way through `--map`.
 */
export function mappingOfInferred(inferred: Readonly<Record<string, unknown>>): FieldMapping | null {
  const path = inferred.conversation;
  const shape = inferred.shape;
  if (typeof path !== 'string' || typeof shape !== 'string' || !isMessageShape(shape)) return null;
  const mapping: FieldMapping = {
    description: 'Inferred by Trajscope from the shape of the record (docs/formats.md, "Read by shape"): check it, edit it, keep it.',
    messages: { path, ...(shape === 'chat' ? {} : { shape }) },
  };
  for (const fact of MAPPED_FACTS) {
    const at = inferred[fact];
    if (typeof at === 'string') mapping[fact] = at;
  }
  if (typeof inferred.termination === 'string') {
    mapping.status = inferred.termination;
    mapping.status_map = { ...STATUS_WORDS };
  }
  return mapping;
}

const isMessageShape = (s: string): s is MessageShape => (MESSAGE_SHAPES as readonly string[]).includes(s);

/** Whether a record is one the structural reader takes (detection: tried after every named format). */
export function hasConversation(value: Json): boolean {
  return inferMapping(value) !== null;
}

/** The `structural` format: one record read through the mapping its shape implies, its inferences named. */
export const convertByShape: Convert = (value, ctx) => {
  const reading = inferMapping(value);
  if (!reading) throw new ConvertError('no conversation with a model turn was found in this record (docs/formats.md, "Read by shape")');
  return convertMapped(value, { ...ctx, mapping: reading.mapping }).map((record) => ({
    ...record,
    source_format: 'structural',
    extra: { ...(isRecord(record.extra) ? record.extra : {}), read_by_shape: reading.inferred },
  }));
};
