import { convertMappedWith } from '../mapping/convert';
import type { FieldMapping } from '../mapping/schema';
import { type Out, readShape } from '../mapping/shapes';
import { isRecord, type Json } from '../read';
import { type Convert, ConvertError } from '../types';
import { findFields } from './fields';
import { findConversation } from './findConversation';
import { MAPPED_FACTS, mappingOfInferred } from './inferredMapping';

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
  /**
   * The conversation as read while detecting, not yet paired (its position ids name the record's location,
   * known only when converting): taken by the first conversion, so reading the list twice is not the cost.
   */
  unpaired?: Out[];
}

/** The mapping a record's shape implies, or null when it holds no conversation with a model turn in it. */
function inferMapping(value: Json): ShapeReading | null {
  const conversation = findConversation(value);
  if (!conversation) return null;
  const items = conversation.path.split('.').reduce<unknown>((v, k) => (isRecord(v) ? v[k] : undefined), value);
  if (!Array.isArray(items)) return null;
  // A list of prompts (a data set, not a trajectory) has no model turn: that is not a rollout.
  const messages = readShape(conversation.shape, items);
  if (!messages.some((m) => m.role === 'assistant')) return null;
  const fields = findFields(value, conversation.path);
  const inferred: Record<string, string> = { conversation: conversation.path, shape: conversation.shape };
  for (const fact of MAPPED_FACTS) if (fields[fact] !== undefined) inferred[fact] = fields[fact];
  if (fields.status !== undefined) inferred.termination = fields.status;
  const mapping = mappingOfInferred(inferred);
  if (!mapping) return null;
  return { mapping, inferred, unpaired: messages };
}

/**
 * Readings by record, kept from detection to conversion: both ask of the same parsed line (lineParser hands
 * the value it detected on to the converter), and inferring twice was a fifth of reading a file by shape.
 */
const readings = new WeakMap<Json, ShapeReading | null>();

function readingOf(value: Json): ShapeReading | null {
  let reading = readings.get(value);
  if (reading === undefined) {
    reading = inferMapping(value);
    readings.set(value, reading);
  }
  return reading;
}

/** Whether a record is one the structural reader takes (detection: tried after every named format). */
export function hasConversation(value: Json): boolean {
  return readingOf(value) !== null;
}

/** The `structural` format: one record read through the mapping its shape implies, its inferences named. */
export const convertByShape: Convert = (value, ctx) => {
  const reading = readingOf(value);
  if (!reading) throw new ConvertError('no conversation with a model turn was found in this record (docs/formats.md, "Read by shape")');
  // Pairing writes into the messages: a second conversion of the same value reads its list afresh.
  const unpaired = reading.unpaired;
  reading.unpaired = undefined;
  const records = convertMappedWith(value, { ...ctx, mapping: reading.mapping }, unpaired);
  for (const record of records) {
    // The record is the mapped reader's own, new: renamed and added to in place, keys in the same order.
    record.source_format = 'structural';
    if (isRecord(record.extra)) record.extra.read_by_shape = reading.inferred;
    else record.extra = { read_by_shape: reading.inferred };
  }
  return records;
};
