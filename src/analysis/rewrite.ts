import { sequenceChange } from './context';
import { commonPrefix } from './ids';

/** Why an earlier context was rewritten (W_CONTEXT_REWRITTEN), told from the decoded text of both. */
export type RewriteKind = 'retokenized' | 'thinking_dropped' | 'compacted' | 'other';

/** Token ids to text, as a record's token strings or a tokenizer give it; null where an id has no known text. */
export interface TokenText {
  piece(id: number): string | null;
  /** A run decoded together (a character split over byte-level tokens comes out whole). */
  text(ids: readonly number[]): string | null;
}

/** A half-open run of token positions. */
export interface TokenSpan {
  start: number;
  end: number;
}

export interface RewriteClass {
  kind: RewriteKind;
  /** The rewritten run in the earlier sequence (previous input_ids + generated_ids). */
  before: TokenSpan;
  /** Where it is in the new context (empty at the point of removal when nothing replaced it). */
  after: TokenSpan;
  /** The earlier text that is gone, shortened for a message (empty for retokenized). */
  removed: string;
  /** The text that replaced it, shortened (empty when nothing did). */
  inserted: string;
}

/** Reasoning blocks as Qwen3's (and DeepSeek-R1's) chat templates write them. */
const THINK_BLOCK = /<think>[\s\S]*?<\/think>/g;
const EXCERPT_CHARS = 60;

function excerpt(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > EXCERPT_CHARS ? `${flat.slice(0, EXCERPT_CHARS - 1)}…` : flat;
}

const squeeze = (s: string) => s.replace(/\s+/g, '');

/**
 * Classifies how `after` (a new context) rewrote `before` (the sequence it should have extended):
 * - retokenized: the decoded text of `before` is unchanged at the start of `after`, only its ids differ;
 * - thinking dropped: what disappeared is `<think>…</think>` blocks, the rest of the text unchanged;
 * - compacted: other earlier text was removed or replaced;
 * - other: nothing earlier was removed, yet the context is not an append (text inserted or whitespace changed).
 * Null when some token has no known text (then nothing is claimed). Pure: the caller decodes.
 */
export function classifyRewrite(before: readonly number[], after: readonly number[], tokens: TokenText): RewriteClass | null {
  const p = commonPrefix(before, after);
  if (p === before.length) return null;
  const beforeText = tokens.text(before);
  const afterText = tokens.text(after);
  if (beforeText === null || afterText === null) return null;

  if (afterText.startsWith(beforeText)) {
    // The old text is all there: find the token that covers its end, then trim the ids both sides share.
    let chars = tokens.text(after.slice(0, p))?.length ?? 0;
    let q = p;
    while (q < after.length && chars < beforeText.length) {
      chars += tokens.piece(after[q] as number)?.length ?? 0;
      q++;
    }
    let end = before.length;
    while (end > p && q > p && before[end - 1] === after[q - 1]) {
      end--;
      q--;
    }
    return { kind: 'retokenized', before: { start: p, end }, after: { start: p, end: q }, removed: '', inserted: '' };
  }

  const change = sequenceChange(before, after);
  // The last run is the new content (observation, prompt) when it follows a kept run that reached the
  // old sequence's end; everything else that is not kept is the rewrite.
  const pieces = change.pieces;
  const last = pieces[pieces.length - 1];
  const appended = last?.kind === 'added' && last.end === after.length && pieces[pieces.length - 2]?.kind === 'kept' ? 1 : 0;
  const rewrite = pieces.slice(0, pieces.length - appended);
  let removed = '';
  let inserted = '';
  const beforeSpan = { start: before.length, end: p };
  const afterSpan = { start: after.length, end: p };
  let afterAt = 0;
  for (const piece of rewrite) {
    if (piece.kind === 'dropped') {
      removed += tokens.text(before.slice(piece.start, piece.end)) ?? '';
      beforeSpan.start = Math.min(beforeSpan.start, piece.start);
      beforeSpan.end = Math.max(beforeSpan.end, piece.end);
      afterSpan.start = Math.min(afterSpan.start, afterAt);
      afterSpan.end = Math.max(afterSpan.end, afterAt);
    } else {
      if (piece.kind === 'added') {
        inserted += tokens.text(after.slice(piece.start, piece.end)) ?? '';
        afterSpan.start = Math.min(afterSpan.start, piece.start);
        afterSpan.end = Math.max(afterSpan.end, piece.end);
      }
      afterAt = piece.end;
    }
  }
  if (beforeSpan.start > beforeSpan.end) beforeSpan.start = beforeSpan.end;
  if (afterSpan.start > afterSpan.end) afterSpan.start = afterSpan.end;
  const thinking = removed.match(THINK_BLOCK);
  const kind: RewriteKind =
    thinking && squeeze(removed.replace(THINK_BLOCK, '')) === squeeze(inserted)
      ? 'thinking_dropped'
      : squeeze(removed) !== ''
        ? 'compacted'
        : 'other';
  return { kind, before: beforeSpan, after: afterSpan, removed: excerpt(removed), inserted: excerpt(inserted) };
}

/** What the two sequences are called in words: a rewritten context, or a trainer's packed sequence. */
export interface RewriteSides {
  before: string;
  after: string;
}

const CONTEXT_SIDES: RewriteSides = { before: 'the earlier sequence', after: 'this context' };

/** One line for a finding's message: the class and its exact span. */
export function describeRewrite(c: RewriteClass, sides: RewriteSides = CONTEXT_SIDES): string {
  const span = (s: TokenSpan) => (s.end - s.start === 1 ? `token ${s.start}` : `tokens ${s.start}–${s.end - 1}`);
  const was = `${span(c.before)} of ${sides.before}`;
  const now = c.after.end > c.after.start ? `${span(c.after)} of ${sides.after}` : `nothing in ${sides.after} (at ${c.after.start})`;
  switch (c.kind) {
    case 'retokenized':
      return `retokenized: the text is unchanged but its token ids differ (${was} are ${now}); the trained sequence will not be the sampled one`;
    case 'thinking_dropped':
      return `thinking dropped: a <think>…</think> block was removed (${was}, now ${now})`;
    case 'compacted':
      return `compacted: earlier text was removed${c.inserted ? ' or replaced' : ''} (${was}: "${c.removed}"${c.inserted ? `, now "${c.inserted}"` : ''})`;
    case 'other':
      return `other: no earlier text was removed, but it is not an append (${now}${c.inserted ? `: "${c.inserted}"` : ''})`;
  }
}
