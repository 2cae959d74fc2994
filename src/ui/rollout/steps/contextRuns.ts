import { type ContextChange, plural } from '../../../analysis';
import type { Decoder } from '../../../load';

/**
 * A run of a segment's context as the steps view shows it: `initial` is the first segment's whole
 * context (nothing came before it to compare with); `kept`, `added` and `dropped` are as in
 * `contextChange` (dropped positions are in the previous sequence, the others in this input_ids).
 */
export interface ContextRun {
  kind: 'initial' | 'kept' | 'added' | 'dropped';
  start: number;
  end: number;
  /** Starts collapsed to a one-line toggle: a long run the model had already seen. */
  collapsed: boolean;
  /** What the toggle says, e.g. "519 tokens seen before". */
  label: string;
}

/** A kept run this short stays open: it is the few tokens around a change, not history. */
export const SHORT_KEPT = 24;

/**
 * Past this many tokens a run shows its first PREVIEW_TOKENS and a button for the rest, so that one
 * 100k-token prompt does not lay out half a megabyte of text each time its row scrolls into view.
 */
export const PREVIEW_TOKENS = 3000;

const tokens = (n: number) => plural(n, 'token');

/** The runs of one segment's context, with what starts collapsed. */
export function contextRuns(change: ContextChange, first: boolean): ContextRun[] {
  return change.pieces.map((p, i) => {
    const n = p.end - p.start;
    if (first && p.kind === 'added') return { ...p, kind: 'initial', collapsed: false, label: `${tokens(n)}: the first context` };
    if (p.kind === 'kept') {
      const label = i === 0 ? `${tokens(n)} seen before` : `${tokens(n)} unchanged`;
      return { ...p, collapsed: n > SHORT_KEPT, label };
    }
    return { ...p, collapsed: false, label: p.kind === 'added' ? `${tokens(n)} new` : `${tokens(n)} dropped` };
  });
}

export interface DecodedRun {
  text: string;
  /** `ids`: some or all tokens have no text and are shown as [#id] (`shownId`; the decoder's note says why). */
  exact: 'text' | 'pieces' | 'ids';
}

/**
 * A token with no text, as the context shows it: `[#id]`. ASCII brackets, not ⟨ ⟩ (U+27E8/9), which the
 * usual monospace fonts lack: the browser then split the text into a fallback font's run at every id, and
 * laying out a context of 6,000 ids took a median of 61 ms against 12 ms (Chromium, Liberation Mono): most
 * of the task that draws a rollout opened from a run whose records carry ids only (issue 25). A line may
 * break before an opening bracket (UAX #14), so a context of ids wraps between ids, not inside a number
 * (« », also in every font, did not).
 */
export const shownId = (id: number | string) => `[#${id}]`;

/** Text of a run of ids: decoded together, else piece by piece, else as ids. */
export function decodeRun(ids: readonly number[], decoder: Pick<Decoder, 'text' | 'piece'> | null): DecodedRun {
  const whole = decoder?.text(ids) ?? null;
  if (whole !== null) return { text: whole, exact: 'text' };
  let text = '';
  let missing = false;
  for (const id of ids) {
    const p = decoder?.piece(id) ?? null;
    if (p === null) missing = true;
    text += p ?? shownId(id);
  }
  return { text, exact: missing ? 'ids' : 'pieces' };
}

/** A chat-template control token such as `<|im_start|>`: shown, but quieter than the words around it. */
const SPECIAL = /(<\|[A-Za-z0-9_]+\|>)/;

/** Splits text into plain runs and special tokens (odd indexes are the special tokens). */
export function splitSpecial(text: string): string[] {
  return text.split(SPECIAL);
}
