import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { runPass } from '../../analysis';
import {
  type ChipMetrics,
  chipLabel,
  chipText,
  labelCells,
  layoutRows,
  MAX_CHIP_CHARS,
  measureRestPass,
  measureTokens,
  rowCount,
  rowOf,
} from './layout';
import { endsLine } from './whitespace';

// 10 px per character, no padding, no gap: widths read as character counts.
const M: ChipMetrics = { charWidth: 10, extra: 0, gap: 0 };

function cellsOf(widths: number[], breaks: number[] = []) {
  return { cells: Uint8Array.from(widths), breakAfter: Uint8Array.from(widths.map((_, i) => (breaks.includes(i) ? 1 : 0))) };
}

describe('chipLabel and labelCells', () => {
  it('visible text, #id without text, ∅ for an empty piece', () => {
    expect(chipLabel(' a\n', 7)).toBe('·a↵');
    expect(chipLabel(null, 151644)).toBe('#151644');
    expect(chipLabel('', 3)).toBe('∅');
  });

  it('wide characters take two cells, a surrogate pair one wide character', () => {
    expect(labelCells('abc')).toBe(3);
    expect(labelCells('中文')).toBe(4);
    expect(labelCells('😀')).toBe(2);
  });
});

describe('chipText', () => {
  it('keeps a label that fits and cuts a longer one to the chip, ending in …', () => {
    expect(chipText('ab')).toBe('ab');
    expect(chipText('x'.repeat(MAX_CHIP_CHARS))).toBe('x'.repeat(MAX_CHIP_CHARS));
    expect(chipText('x'.repeat(40))).toBe(`${'x'.repeat(MAX_CHIP_CHARS - 1)}…`);
    // A wide character that would not fit before the … is left out whole; a surrogate pair is never split.
    expect(chipText(`${'x'.repeat(MAX_CHIP_CHARS - 2)}中文`)).toBe(`${'x'.repeat(MAX_CHIP_CHARS - 2)}…`);
    expect(chipText('😀'.repeat(12))).toBe(`${'😀'.repeat(8)}…`);
  });

  it('never shows more cells than a chip has, and shows a whole label that fits', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom('a', ' ', '中', '😀', '↵', '\u0301'), maxLength: 40 }), (label) => {
        const shown = chipText(label);
        expect(labelCells(shown)).toBeLessThanOrEqual(MAX_CHIP_CHARS);
        if (labelCells(label) <= MAX_CHIP_CHARS) expect(shown).toBe(label);
        else expect(label.startsWith(shown.slice(0, -1)) && shown.endsWith('…')).toBe(true);
      }),
    );
  });
});

describe('measureTokens', () => {
  it('records cells, line ends and tokens without text, clamped to the chip maximum', () => {
    const text: Record<number, string> = { 1: 'ab', 2: '\n', 3: 'x'.repeat(100), 4: '' };
    const t = measureTokens([1, 2, 3, 4, 99], (id) => text[id] ?? null);
    expect([...t.cells]).toEqual([2, 1, MAX_CHIP_CHARS, 1, 3]);
    expect([...t.breakAfter]).toEqual([0, 1, 0, 0, 0]);
    expect(t.missing).toBe(1);
  });

  it('measures each token as its own label would be, whether its id was seen before or has no text', () => {
    // Ids: repeated ones, negative, large, not whole; texts: whitespace, newlines, wide and long ones.
    const id = fc.oneof(fc.integer({ min: -20, max: 20 }), fc.integer(), fc.double({ noNaN: true }), fc.constant(2 ** 60));
    const text = fc.option(fc.constantFrom('', 'ab', ' x', '\n', 'a\nb', '\t\r', '中文', '😀', '\u3000', 'x'.repeat(40)), { nil: null });
    fc.assert(
      fc.property(fc.array(id, { maxLength: 40 }), fc.func(text), (ids, textOf) => {
        const piece = (i: number) => textOf(i);
        const t = measureTokens(ids, piece);
        ids.forEach((i, k) => {
          const p = piece(i);
          expect(t.cells[k], `token ${k} (#${i}, ${JSON.stringify(p)})`).toBe(
            Math.max(1, Math.min(MAX_CHIP_CHARS, labelCells(chipLabel(p, i)))),
          );
          expect(t.breakAfter[k]).toBe(p !== null && endsLine(p) ? 1 : 0);
        });
        expect(t.missing).toBe(ids.filter((i) => piece(i) === null).length);
      }),
      { numRuns: 300 },
    );
  });
});

describe('layoutRows', () => {
  it('fills rows up to the width', () => {
    expect([...layoutRows(cellsOf([3, 3, 3, 3, 3]), 70, M)]).toEqual([0, 2, 4, 5]);
  });

  it('counts the gap and chip padding', () => {
    const m = { charWidth: 10, extra: 4, gap: 2 };
    // 14 + 2 + 14 = 30 fits; a third (46) does not.
    expect([...layoutRows(cellsOf([1, 1, 1]), 30, m)]).toEqual([0, 2, 3]);
    expect([...layoutRows(cellsOf([1, 1, 1]), 29, m)]).toEqual([0, 1, 2, 3]);
  });

  it('starts a new row after a token with a newline', () => {
    expect([...layoutRows(cellsOf([1, 1, 1, 1], [1]), 1000, M)]).toEqual([0, 2, 4]);
    // A newline token at the very end adds no empty row.
    expect([...layoutRows(cellsOf([1, 1], [1]), 1000, M)]).toEqual([0, 2]);
  });

  it('caps the chips per row and gives an over-wide chip a row of its own', () => {
    expect([...layoutRows(cellsOf([1, 1, 1, 1, 1]), 1000, M, 2)]).toEqual([0, 2, 4, 5]);
    expect([...layoutRows(cellsOf([1, 9, 1]), 50, M)]).toEqual([0, 1, 2, 3]);
  });

  it('an empty sequence has no rows; 100k tokens lay out in one quick pass', () => {
    const empty = layoutRows(cellsOf([]), 100, M);
    expect(rowCount(empty)).toBe(0);
    const n = 100_000;
    const big = { cells: new Uint8Array(n).fill(4), breakAfter: new Uint8Array(n) };
    const started = performance.now();
    const starts = layoutRows(big, 800, M);
    expect(performance.now() - started).toBeLessThan(200);
    expect(rowCount(starts)).toBe(n / 20);
  });
});

describe('a sequence measured in part', () => {
  it('measures its first tokens and says it is not complete; past the end it is', () => {
    const t = measureTokens([1, 22, 333, 4444], () => null, 2);
    expect([...t.cells]).toEqual([2, 3]);
    expect([t.missing, t.complete]).toEqual([2, false]);
    expect(measureTokens([1, 22], () => null, 9).complete).toBe(true);
  });

  it('measures the rest, from what the start measured on, to what measuring it whole gives', () => {
    const text = fc.option(fc.constantFrom('', 'ab', '\n', 'x'.repeat(40), '中'), { nil: null });
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 30 }), { maxLength: 20_000 }), fc.func(text), fc.nat(20_000), (ids, textOf, cut) => {
        const piece = (i: number) => textOf(i);
        const first = measureTokens(ids, piece, cut);
        expect(runPass(measureRestPass(ids, piece, first))).toEqual(measureTokens(ids, piece));
      }),
      { numRuns: 40 },
    );
  });

  // Issue 25: a long sequence is laid out from its start first, and whole after the first paint; the rows
  // drawn first must be the whole layout's first rows, or the grid would shift under the reader.
  it('lays out rows that are the first rows of the whole layout, leaving out the last row it cannot finish', () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ cells: fc.integer({ min: 1, max: MAX_CHIP_CHARS }), breaks: fc.boolean() }), { maxLength: 80 }),
        fc.nat(80),
        fc.integer({ min: 30, max: 200 }),
        fc.integer({ min: 1, max: 6 }),
        (tokens, cut, width, perRow) => {
          const whole = { cells: Uint8Array.from(tokens, (t) => t.cells), breakAfter: Uint8Array.from(tokens, (t) => (t.breaks ? 1 : 0)) };
          const end = Math.min(cut, tokens.length);
          const part = { cells: whole.cells.slice(0, end), breakAfter: whole.breakAfter.slice(0, end), complete: end === tokens.length };
          const all = [...layoutRows(whole, width, M, perRow)];
          const first = [...layoutRows(part, width, M, perRow)];
          // Each row start of the part, its end marker included, is the whole layout's at the same index.
          expect(all.slice(0, first.length)).toEqual(first);
          if (part.complete) expect(first).toEqual(all);
          // No row of the part runs past what was measured, and at most one row (its last) is left out.
          expect(first[first.length - 1] ?? 0).toBeLessThanOrEqual(end);
          expect(all.filter((s) => s < end).length - rowCount(Int32Array.from(first))).toBeLessThanOrEqual(1);
        },
      ),
      { numRuns: 500 },
    );
  });
});

describe('rowOf', () => {
  const starts = Int32Array.from([0, 2, 4, 5]);
  it('finds the row of each position', () => {
    expect([0, 1, 2, 3, 4].map((p) => rowOf(starts, p))).toEqual([0, 0, 1, 1, 2]);
  });
  it('is -1 outside the sequence', () => {
    expect(rowOf(starts, 5)).toBe(-1);
    expect(rowOf(starts, -1)).toBe(-1);
    expect(rowOf(Int32Array.from([0]), 0)).toBe(-1);
  });
});
