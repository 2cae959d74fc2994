/*
 * Chip layout without the DOM. Every chip's width is known from its text (monospace: characters ×
 * the width of one), so rows can be cut for 100k tokens in one pass over two typed arrays, and the
 * virtualizer gets fixed-height rows it never has to measure. Strings are made only for rows in view.
 */
import type { Pass } from '../../analysis';
import { endsLine, visibleWhitespace } from './whitespace';

/** Chips show at most this many characters; a longer token is cut (its whole text is in the details). */
export const MAX_CHIP_CHARS = 18;
/** At most this many chips per row, so the DOM stays bounded (rows in view × this) however short the tokens. */
const MAX_CHIPS_PER_ROW = 40;

/** The chip text of a token: its visible text, `#id` when it has none, `∅` when it is empty. */
export function chipLabel(piece: string | null, id: number): string {
  if (piece === null) return `#${id}`;
  if (piece === '') return '∅';
  return visibleWhitespace(piece);
}

/**
 * What a chip shows of its label: the label, or, past MAX_CHIP_CHARS cells, its first cells and `…` in
 * the last. Cut here rather than clipped by the chip's CSS: a clip per chip (`overflow: hidden`) made
 * painting a screen of chips 1.5-3 x as long while the token list scrolled (issue 25).
 */
export function chipText(label: string): string {
  if (labelCells(label) <= MAX_CHIP_CHARS) return label;
  let cells = 0;
  let end = 0;
  for (const ch of label) {
    const w = labelCells(ch);
    if (cells + w > MAX_CHIP_CHARS - 1) break;
    cells += w;
    end += ch.length;
  }
  return `${label.slice(0, end)}…`;
}

/** Width of a label in monospace cells: East Asian wide characters take two. */
export function labelCells(label: string): number {
  let cells = 0;
  for (let i = 0; i < label.length; i++) {
    const c = label.charCodeAt(i);
    // The low half of a surrogate pair adds nothing: the pair is one (wide) character.
    if (c >= 0xdc00 && c <= 0xdfff) continue;
    cells += c >= 0x1100 && (c <= 0x115f || (c >= 0x2e80 && c <= 0xa4cf) || (c >= 0xac00 && c <= 0xd7a3) || c >= 0xd800) ? 2 : 1;
  }
  return cells;
}

/** Per token, what the layout needs and nothing more. */
export interface TokenCells {
  /** Chip width in monospace cells, 1 .. MAX_CHIP_CHARS. */
  cells: Uint8Array;
  /** 1 where the token holds a newline: the row ends after it, so text keeps its lines. */
  breakAfter: Uint8Array;
  /** How many of the measured tokens have no text (shown as ids). */
  missing: number;
  /**
   * Whether every token of the sequence is measured; else only the first `cells.length` are (a sequence is
   * measured from its start to a little past the token shown first, the rest after the first paint).
   */
  complete: boolean;
}

/** Width in cells of `#id`, the chip of a token without text, with no string made: `#` and the id's digits. */
function idCells(id: number): number {
  if (!Number.isSafeInteger(id)) return labelCells(chipLabel(null, id));
  const v = Math.abs(id);
  // Token ids are below a million: compared, not divided.
  const digits = v < 10 ? 1 : v < 100 ? 2 : v < 1e3 ? 3 : v < 1e4 ? 4 : v < 1e5 ? 5 : v < 1e6 ? 6 : String(v).length;
  return (id < 0 ? 2 : 1) + digits;
}

/**
 * Measures the tokens of a sequence, its first `end` or all of them; keeps numbers, not strings. A token id
 * has one text, so each distinct id is measured once (real text repeats its ids), and a token without text
 * costs no string: a 100k-token sequence took 10-31 ms here on the page's thread when a rollout opened (issue 25).
 */
export function measureTokens(ids: readonly number[], piece: (id: number) => string | null, end = ids.length): TokenCells {
  const n = Math.max(0, Math.min(end, ids.length));
  const out = { cells: new Uint8Array(n), breakAfter: new Uint8Array(n), missing: 0, complete: n === ids.length };
  measureRange(ids, piece, out, new Map(), 0, n);
  return out;
}

/** Tokens the rest of a sequence is measured by between two yields of `measureRestPass`. */
const REST_CHUNK = 8192;

/**
 * The whole sequence's cells, from what `first` measured of its start on: `measureTokens` as a pass
 * (src/analysis/passes.ts), so the page runs the rest in slices after its first paint.
 */
export function* measureRestPass(ids: readonly number[], piece: (id: number) => string | null, first: TokenCells): Pass<TokenCells> {
  const n = ids.length;
  const out = { cells: new Uint8Array(n), breakAfter: new Uint8Array(n), missing: first.missing, complete: true };
  out.cells.set(first.cells);
  out.breakAfter.set(first.breakAfter);
  const known = new Map<number, number>();
  for (let from = first.cells.length; from < n; from += REST_CHUNK) {
    measureRange(ids, piece, out, known, from, Math.min(n, from + REST_CHUNK));
    yield from / n;
  }
  return out;
}

/** Measures tokens [from, to) into `out`, counting those without text in `out.missing`. */
function measureRange(
  ids: readonly number[],
  piece: (id: number) => string | null,
  out: TokenCells,
  // Per id with text: its cells, negated when the token ends a line.
  known: Map<number, number>,
  from: number,
  to: number,
): void {
  const { cells, breakAfter } = out;
  let missing = 0;
  for (let i = from; i < to; i++) {
    const id = ids[i] ?? 0;
    const p = piece(id);
    if (p === null) {
      missing++;
      cells[i] = Math.min(MAX_CHIP_CHARS, idCells(id));
      continue;
    }
    let m = known.get(id);
    if (m === undefined) {
      m = Math.max(1, Math.min(MAX_CHIP_CHARS, labelCells(chipLabel(p, id)))) * (endsLine(p) ? -1 : 1);
      known.set(id, m);
    }
    cells[i] = Math.abs(m);
    if (m < 0) breakAfter[i] = 1;
  }
  out.missing += missing;
}

/** Pixel geometry of a chip: width = cells × charWidth + extra; `gap` between chips. */
export interface ChipMetrics {
  charWidth: number;
  /** Padding and borders of one chip, in px. */
  extra: number;
  gap: number;
}

/**
 * Cuts the chips into rows no wider than `width` px, a row ending after a token with a newline or
 * at `maxPerRow` chips. A chip wider than the row gets a row of its own. Returns each row's first
 * position followed by the end of the last row, so row r is [starts[r], starts[r+1]). Of tokens measured
 * only in part, the last row is left out: the tokens measured next may belong to it.
 */
export function layoutRows(
  tokens: Pick<TokenCells, 'cells' | 'breakAfter'> & { complete?: boolean },
  width: number,
  m: ChipMetrics,
  maxPerRow = MAX_CHIPS_PER_ROW,
): Int32Array {
  const { cells, breakAfter } = tokens;
  const n = cells.length;
  // A chip's width by its cells (1 .. MAX_CHIP_CHARS), looked up rather than computed per token.
  const widths = Array.from({ length: MAX_CHIP_CHARS + 1 }, (_, c) => c * m.charWidth + m.extra);
  const starts: number[] = [];
  let used = 0;
  let count = 0;
  for (let i = 0; i < n; i++) {
    const w = widths[cells[i] ?? 1] ?? widths[1] ?? 0;
    if (count > 0 && (used + m.gap + w > width || count >= maxPerRow)) count = 0;
    if (count === 0) {
      starts.push(i);
      used = w;
    } else used += m.gap + w;
    count++;
    if (breakAfter[i] === 1) count = 0;
  }
  // The last row's start then ends the rows before it.
  if (tokens.complete === false && starts.length > 0) return Int32Array.from(starts);
  starts.push(n);
  return Int32Array.from(starts);
}

/** Number of rows in a layout. */
export function rowCount(starts: Int32Array): number {
  return Math.max(0, starts.length - 1);
}

/** The row holding a position (binary search over the row starts); -1 outside the sequence. */
export function rowOf(starts: Int32Array, position: number): number {
  const rows = rowCount(starts);
  if (rows === 0 || position < 0 || position >= (starts[rows] ?? 0)) return -1;
  let lo = 0;
  let hi = rows - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if ((starts[mid] ?? 0) <= position) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}
