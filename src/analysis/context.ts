import { diffArrays } from 'diff';
import type { Rollout } from '../format';
import { commonPrefix } from './ids';

/**
 * A run of the model-visible context of one segment, compared with what the model had seen by the end
 * of the previous segment (its `input_ids` + `generated_ids`). `kept` and `added` are positions in the
 * current `input_ids`; `dropped` are positions in that previous sequence, shown where they used to be.
 */
type ContextPiece =
  | { kind: 'kept'; start: number; end: number }
  | { kind: 'added'; start: number; end: number }
  | { kind: 'dropped'; start: number; end: number };

export interface ContextChange {
  pieces: ContextPiece[];
  added: number;
  dropped: number;
  /** True when earlier context was dropped or changed: the context is not the old one plus an append. */
  rewritten: boolean;
  /** True when the change was too large to align token by token and is shown as prefix + replacement. */
  approximate: boolean;
}

/**
 * Bounds the token diff: Myers' algorithm costs O((N+M)·D), and past this many edits a person gains
 * nothing from a finer alignment than "this prefix kept, the rest replaced".
 */
const MAX_CONTEXT_EDITS = 4000;

/** The previous sequence a segment's context should extend: previous input_ids + generated_ids. */
export function previousSequence(record: Rollout, segment: number): number[] {
  const prev = record.segments[segment - 1];
  return prev ? [...prev.input_ids, ...prev.generated_ids] : [];
}

/** What changed in segment `segment`'s context since the previous segment. */
export function contextChange(record: Rollout, segment: number): ContextChange {
  return sequenceChange(previousSequence(record, segment), record.segments[segment]?.input_ids ?? []);
}

/** How `cur` differs from `prev`, which it should extend by appending (kept, added and dropped runs). */
export function sequenceChange(prev: readonly number[], cur: readonly number[]): ContextChange {
  const p = commonPrefix(prev, cur);
  const pieces: ContextPiece[] = [];
  const push = (kind: ContextPiece['kind'], start: number, end: number) => {
    if (end <= start) return;
    const last = pieces[pieces.length - 1];
    if (last && last.kind === kind && last.end === start) last.end = end;
    else pieces.push({ kind, start, end });
  };
  push('kept', 0, p);
  if (p === prev.length) {
    push('added', p, cur.length);
    return { pieces, added: cur.length - p, dropped: 0, rewritten: false, approximate: false };
  }
  const changes = diffArrays(prev.slice(p), cur.slice(p), { maxEditLength: MAX_CONTEXT_EDITS });
  if (!changes) {
    push('dropped', p, prev.length);
    push('added', p, cur.length);
    return { pieces, added: cur.length - p, dropped: prev.length - p, rewritten: true, approximate: true };
  }
  let at = p;
  let prevAt = p;
  let added = 0;
  let dropped = 0;
  for (const c of changes) {
    const n = c.count ?? c.value.length;
    if (c.removed) {
      push('dropped', prevAt, prevAt + n);
      prevAt += n;
      dropped += n;
    } else if (c.added) {
      push('added', at, at + n);
      at += n;
      added += n;
    } else {
      push('kept', at, at + n);
      at += n;
      prevAt += n;
    }
  }
  return { pieces, added, dropped, rewritten: true, approximate: false };
}
