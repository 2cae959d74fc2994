import type { FieldMapping } from '../mapping/schema';
import { MESSAGE_SHAPES, type MessageShape } from '../mapping/shapes';
import { type Fact, STATUS_WORDS } from './fields';

/*
 * The mapping a record read by shape stands for, from what its `extra.read_by_shape` says. A module of its
 * own, light: the page's rollout header imports it without the readers (readByShape.ts).
 */

export const MAPPED_FACTS: readonly Fact[] = ['reward', 'task_id', 'rollout_id', 'policy_version', 'prompt'];

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
