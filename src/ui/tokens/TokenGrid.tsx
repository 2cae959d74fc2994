import { useVirtualizer } from '@tanstack/react-virtual';
import {
  type CSSProperties,
  type KeyboardEvent,
  type MouseEvent,
  memo,
  useEffect,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
} from 'react';
import type { TokenSpan, TokenTrack } from '../../analysis';
import { chipStyle, type ShadeMode } from './chipStyle';
import { type ChipMetrics, chipLabel, chipText, layoutRows, rowCount, rowOf, type TokenCells } from './layout';
import { roleInfo } from './roles';
import { escapeText } from './whitespace';

/** Row height in px, fixed so the virtualizer never measures. Keep in step with `.tok-row` in tokens.css. */
const ROW_HEIGHT = 22;
/**
 * A chip's horizontal padding + border (2 × 2 + 2 × 1 px, keep in step with `.tok`) plus 1 px of slack:
 * glyphs from a fallback font (↵, ⍽) can be a hair wider than a cell. The chip widths of tokens.css
 * (`.tok--w1` to `.tok--w18`) add the same 7 px.
 */
const CHIP_EXTRA = 7;
const CHIP_GAP = 2;
/** The position gutter holds up to 7 digits; plus its margin, and the row's side padding, in px. */
const GUTTER_CHARS = 7;
const GUTTER_MARGIN = 10;
const ROW_PADDING = 16;
/** Space above the first row and below the last, in px. */
const LIST_PADDING = 6;
const RULER = '0'.repeat(20);

interface Props {
  track: TokenTrack;
  cells: TokenCells;
  piece: (id: number) => string | null;
  mode: ShadeMode;
  threshold: number;
  selected: number | null;
  /** A run to mark (the rewritten span of a context); an empty run marks the position where text was removed. */
  highlight?: TokenSpan | null;
  onSelect: (position: number | null) => void;
  onHover: (position: number | null) => void;
}

const NO_ROWS = new Int32Array([0]);

interface Box {
  width: number;
  charWidth: number;
  height: number;
}
/**
 * The last grid's measurements: a grid starts from them, so the rollout opened next lays out its rows in
 * its first render, and its layout effect re-renders only if the list's width or font changed. Measured
 * first, the grid rendered and committed once with no rows before the rows (issue 25: opening a
 * 100k-token rollout).
 */
let lastBox: Box | null = null;

/**
 * The tokens as chips in rows, virtualized: rows are cut from the chips' known widths (layout.ts), so
 * only the rows in view (plus a few) exist in the DOM, whatever the length of the sequence. The list
 * is one focusable listbox; arrow keys move the selection, and a click selects the chip under it.
 */
export const TokenGrid = memo(function TokenGrid({
  track,
  cells,
  piece,
  mode,
  threshold,
  selected,
  highlight = null,
  onSelect,
  onHover,
}: Props) {
  const scroller = useRef<HTMLDivElement>(null);
  const ruler = useRef<HTMLSpanElement>(null);
  const [box, setBox] = useState<Box | null>(lastBox);

  // One measurement of the monospace character and the list's width; no chip is ever measured.
  useLayoutEffect(() => {
    const el = scroller.current;
    const r = ruler.current;
    if (!el || !r) return;
    const charWidth = r.getBoundingClientRect().width / RULER.length || 7.2;
    const measure = () => {
      const now = { width: el.clientWidth, charWidth, height: el.clientHeight };
      lastBox = now;
      setBox((b) => (b && b.width === now.width && b.charWidth === now.charWidth ? b : now));
    };
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    return () => observer.disconnect();
  }, []);

  const charWidth = box?.charWidth ?? 0;
  const metrics = useMemo<ChipMetrics>(() => ({ charWidth, extra: CHIP_EXTRA, gap: CHIP_GAP }), [charWidth]);
  const gutter = Math.ceil(GUTTER_CHARS * charWidth) + GUTTER_MARGIN;
  const rowWidth = box ? box.width - gutter - ROW_PADDING : 0;
  const starts = useMemo(() => (rowWidth > 0 ? layoutRows(cells, rowWidth, metrics) : NO_ROWS), [cells, rowWidth, metrics]);
  const rows = rowCount(starts);

  const virtualizer = useVirtualizer({
    count: rows,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_HEIGHT,
    // The rows in view of the last grid's height, rather than none until the list is measured.
    initialRect: box ? { width: box.width, height: box.height } : undefined,
    overscan: 4,
    paddingStart: LIST_PADDING,
    paddingEnd: LIST_PADDING,
    scrollPaddingStart: LIST_PADDING,
    scrollPaddingEnd: LIST_PADDING,
  });

  // Keep the selected token in view. A step to a neighbouring row scrolls just enough; a jump (a link,
  // a finding, a new layout after the tokenizer loaded or the window resized) centres it.
  const laidOut = useRef<Int32Array | null>(null);
  useEffect(() => {
    const fresh = laidOut.current !== starts;
    laidOut.current = starts;
    const el = scroller.current;
    if (selected === null || !el) return;
    const row = rowOf(starts, selected);
    if (row < 0) return;
    const top = LIST_PADDING + row * ROW_HEIGHT;
    const view = { top: el.scrollTop, bottom: el.scrollTop + el.clientHeight };
    if (!fresh && top >= view.top && top + ROW_HEIGHT <= view.bottom) return;
    const near = top >= view.top - 2 * ROW_HEIGHT && top + ROW_HEIGHT <= view.bottom + 2 * ROW_HEIGHT;
    virtualizer.scrollToIndex(row, { align: near && !fresh ? 'auto' : 'center' });
  }, [starts, selected, virtualizer]);

  const positionAt = (e: MouseEvent<HTMLElement>): number | null => {
    const chip = e.target instanceof Element ? e.target.closest<HTMLElement>('[data-pos]') : null;
    const pos = Number(chip?.dataset.pos);
    return chip && Number.isInteger(pos) ? pos : null;
  };

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const last = track.ids.length - 1;
    if (last < 0 || rows === 0) return;
    if (e.key === 'Escape') {
      // With no token selected, Esc is left to the page (back to the list).
      if (selected !== null) {
        e.preventDefault();
        onSelect(null);
      }
      return;
    }
    const topRow = Math.floor(Math.max(0, (scroller.current?.scrollTop ?? 0) - LIST_PADDING) / ROW_HEIGHT);
    const firstInView = starts[Math.min(rows - 1, topRow)] ?? 0;
    const at = selected ?? firstInView;
    const page = Math.max(1, Math.floor((scroller.current?.clientHeight ?? 0) / ROW_HEIGHT) - 1);
    const down = (by: number) => {
      const row = rowOf(starts, at);
      const target = Math.max(0, Math.min(rows - 1, row + by));
      const column = at - (starts[row] ?? 0);
      return Math.min((starts[target] ?? 0) + column, (starts[target + 1] ?? 1) - 1);
    };
    let to: number;
    switch (e.key) {
      case 'ArrowRight':
        to = selected === null ? at : at + 1;
        break;
      case 'ArrowLeft':
        to = selected === null ? at : at - 1;
        break;
      case 'ArrowDown':
        to = selected === null ? at : down(1);
        break;
      case 'ArrowUp':
        to = selected === null ? at : down(-1);
        break;
      case 'PageDown':
        to = down(page);
        break;
      case 'PageUp':
        to = down(-page);
        break;
      case 'Home':
        to = 0;
        break;
      case 'End':
        to = last;
        break;
      default:
        return;
    }
    e.preventDefault();
    onSelect(Math.max(0, Math.min(last, to)));
  };

  const items = virtualizer.getVirtualItems();
  const selectedRow = selected === null ? -1 : rowOf(starts, selected);
  const activeInDom = items.some((i) => i.index === selectedRow);
  return (
    <div
      ref={scroller}
      className="tok-grid"
      role="listbox"
      aria-label="Tokens"
      aria-activedescendant={activeInDom ? `tok-${selected}` : undefined}
      tabIndex={0}
      // A chip's width is a class per cell count (tokens.css), in the measured character's width.
      style={charWidth > 0 ? ({ '--tok-cell': `${charWidth}px` } as CSSProperties) : undefined}
      onKeyDown={onKeyDown}
      onClick={(e) => {
        const pos = positionAt(e);
        if (pos !== null) onSelect(pos);
      }}
      onMouseOver={(e) => onHover(positionAt(e))}
      onMouseLeave={() => onHover(null)}
      // Keyboard focus shows the selected token (the active descendant), not one the pointer left behind.
      onFocus={() => onHover(null)}
    >
      <span ref={ruler} className="tok-ruler" aria-hidden="true">
        {RULER}
      </span>
      <div className="tok-grid__rows" style={{ height: virtualizer.getTotalSize() }}>
        {charWidth > 0 &&
          items.map((item) => (
            <TokenRow
              key={item.key}
              start={starts[item.index] ?? 0}
              end={starts[item.index + 1] ?? 0}
              y={item.start}
              gutter={gutter}
              track={track}
              cells={cells}
              piece={piece}
              mode={mode}
              threshold={threshold}
              selected={item.index === selectedRow ? (selected ?? -1) : -1}
              highlight={highlight}
            />
          ))}
      </div>
    </div>
  );
});

interface RowProps {
  start: number;
  end: number;
  y: number;
  gutter: number;
  track: TokenTrack;
  cells: TokenCells;
  piece: (id: number) => string | null;
  mode: ShadeMode;
  threshold: number;
  /** The selected position when it is in this row, else -1: other rows do not re-render on a move. */
  selected: number;
  highlight: TokenSpan | null;
}

/** One row of chips. Labels and styles are made here, only for rows in view. */
const TokenRow = memo(function TokenRow({ start, end, y, gutter, track, cells, piece, mode, threshold, selected, highlight }: RowProps) {
  const chips = [];
  for (let pos = start; pos < end; pos++) {
    const id = track.ids[pos] ?? 0;
    const text = piece(id);
    const role = track.roles[pos] ?? 0;
    const style = chipStyle(role, track.sampled(pos), track.trainer?.[pos], mode, threshold);
    const what = text === null ? `id ${id} (no text)` : `"${escapeText(text)}"`;
    const drift = style.drift === 'over' ? `, drift ${style.difference?.toFixed(2)} nat, above ${threshold}` : '';
    const marked = highlight !== null && pos >= highlight.start && pos < highlight.end;
    const removedHere = highlight !== null && highlight.end === highlight.start && pos === highlight.start;
    const mark = marked ? ' tok--rewrite' : removedHere ? ' tok--rewrite-at' : '';
    chips.push(
      // biome-ignore lint/a11y/useFocusableInteractive: options of an aria-activedescendant listbox take no focus themselves (WAI-ARIA APG)
      <span
        key={pos}
        // Only the selected chip is referred to (the list's aria-activedescendant).
        id={pos === selected ? `tok-${pos}` : undefined}
        role="option"
        aria-selected={pos === selected}
        aria-posinset={pos + 1}
        aria-setsize={track.ids.length}
        aria-label={`position ${pos}: ${what}, ${roleInfo(role).label}${drift}${marked ? ', in the rewritten span' : removedHere ? ', where earlier text was removed' : ''}`}
        data-pos={pos}
        data-role={style.role}
        data-drift={style.drift ?? undefined}
        className={`${style.className} tok--w${cells.cells[pos] ?? 1}${text === null ? ' tok--id' : ''}${mark}${pos === selected ? ' tok--selected' : ''}`}
      >
        {chipText(chipLabel(text, id))}
      </span>,
    );
  }
  return (
    <div className="tok-row" role="none" style={{ transform: `translateY(${y}px)` }}>
      <span className="tok-row__pos" aria-hidden="true" style={{ width: gutter }}>
        {start}
      </span>
      {chips}
    </div>
  );
});
