import { useVirtualizer } from '@tanstack/react-virtual';
import { type CSSProperties, type KeyboardEvent, type MouseEvent, useEffect, useMemo, useRef } from 'react';
import type { RolloutSummary } from '../../analysis';
import type { RunSort, RunSortKey } from '../../state';
import { FocusOnArrival } from '../shared/FocusOnArrival';
import { type Column, gridTemplate, HEADER_HEIGHT, minTableWidth, ROW_HEIGHT } from './columns';
import { RunRow } from './RunRow';

interface Props {
  rollouts: readonly RolloutSummary[];
  policies: readonly (string | null)[];
  advantages: readonly (number | null)[];
  /** The rows to show, in order, as indices into `rollouts` (filtered and sorted). */
  rows: readonly number[];
  columns: readonly Column[];
  /** Index into `rollouts` of the selected rollout, or -1. */
  selectedIndex: number;
  /** The `rollout=` value in the URL, which may name a row that has not loaded yet. */
  selectedKey: string | null;
  /** Changes when the filters or the sort change. */
  viewKey: string;
  sort: RunSort | null;
  onSort: (key: RunSortKey) => void;
  onSelect: (index: number | null) => void;
  /** Opens a rollout's inspector (Enter, double-click). */
  onOpen: (index: number) => void;
}

const ARIA_SORT = { asc: 'ascending', desc: 'descending' } as const;

/**
 * The rollouts as a virtualized grid: only the rows in view (plus a margin) are in the DOM. The table
 * is the one focusable, interactive element: a click finds its row by `data-index`, arrow keys move
 * through the shown rows. Header buttons sort.
 */
export function RunTable(props: Props) {
  const { rollouts, policies, advantages, rows, columns, selectedIndex, selectedKey, viewKey, sort, onSort, onSelect, onOpen } = props;
  const scroller = useRef<HTMLDivElement>(null);
  const grid = useRef<HTMLTableElement>(null);
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_HEIGHT,
    // The sticky header sits above the rows inside the same scroller.
    scrollMargin: HEADER_HEIGHT,
    overscan: 12,
  });
  const positionOf = useMemo(() => new Map(rows.map((index, position) => [index, position])), [rows]);
  const selectedPosition = positionOf.get(selectedIndex) ?? -1;

  // Bring the selected row into view when the table opens (a link may name a row that a later load
  // snapshot brings) and when a filter or sort reorders the rows; never while the person moves.
  const pending = useRef<{ key: string | null } | null>(null);
  const shownFor = useRef<string | null>(null);
  // The selected row as this table last saw it, and the last row it selected or opened itself: a selection
  // made elsewhere (the rollout page's ‹ prev / next ›, while this list was kept hidden) brings its row into view.
  const seenIndex = useRef(selectedIndex);
  const ownIndex = useRef(selectedIndex);
  useEffect(() => {
    if (seenIndex.current !== selectedIndex) {
      if (ownIndex.current !== selectedIndex) pending.current = { key: selectedKey };
      seenIndex.current = selectedIndex;
    }
    if (shownFor.current !== viewKey) {
      shownFor.current = viewKey;
      pending.current = { key: selectedKey };
    }
    if (!pending.current) return;
    if (pending.current.key !== selectedKey) pending.current = null;
    else if (selectedPosition >= 0) {
      virtualizer.scrollToIndex(selectedPosition, { align: 'center' });
      pending.current = null;
    }
  }, [viewKey, selectedKey, selectedIndex, selectedPosition, virtualizer]);

  const rowIndexOf = (e: MouseEvent<HTMLTableElement>): number | null => {
    const row = e.target instanceof Element ? e.target.closest<HTMLElement>('tr[data-index]') : null;
    const index = Number(row?.dataset.index);
    return row && Number.isInteger(index) ? index : null;
  };

  const select = (index: number | null) => {
    ownIndex.current = index ?? -1;
    onSelect(index);
  };
  const open = (index: number) => {
    ownIndex.current = index;
    onOpen(index);
  };

  const onClick = (e: MouseEvent<HTMLTableElement>) => {
    const index = rowIndexOf(e);
    if (index !== null) select(index);
  };

  const onDoubleClick = (e: MouseEvent<HTMLTableElement>) => {
    const index = rowIndexOf(e);
    if (index !== null) open(index);
  };
  // A double click opens a row; without this its second press also selected the word under the pointer,
  // still highlighted in the list on coming back. A single press and a drag still select text.
  const onMouseDown = (e: MouseEvent<HTMLTableElement>) => {
    if (e.detail > 1 && rowIndexOf(e) !== null) e.preventDefault();
  };

  const onKeyDown = (e: KeyboardEvent<HTMLTableElement>) => {
    // Keys on a header's sort button are the button's own.
    if (e.target !== e.currentTarget) return;
    if (e.key === 'Escape') {
      select(null);
      return;
    }
    if (e.key === 'Enter' && selectedIndex >= 0) {
      e.preventDefault();
      open(selectedIndex);
      return;
    }
    const last = rows.length - 1;
    const page = Math.max(1, Math.floor((scroller.current?.clientHeight ?? 0) / ROW_HEIGHT) - 1);
    const at = selectedPosition;
    const moves: Record<string, number> = {
      ArrowDown: at + 1,
      ArrowUp: at < 0 ? 0 : at - 1,
      PageDown: at + page,
      PageUp: at - page,
      Home: 0,
      End: last,
    };
    const to = moves[e.key];
    if (to === undefined || last < 0) return;
    e.preventDefault();
    const position = Math.max(0, Math.min(last, to));
    const index = rows[position];
    if (index === undefined) return;
    select(index);
    virtualizer.scrollToIndex(position);
  };

  const style = { '--runs-cols': gridTemplate(columns) } as CSSProperties;
  const tableStyle = { minWidth: minTableWidth(columns) };
  return (
    <div ref={scroller} className="runs" style={style}>
      <FocusOnArrival target={grid} />
      <table
        // biome-ignore lint/a11y/noNoninteractiveElementToInteractiveRole: a selectable table is an ARIA grid (rows carry aria-selected, arrow keys move)
        role="grid"
        ref={grid}
        aria-label="Rollouts"
        aria-rowcount={rows.length + 1}
        tabIndex={0}
        className="runs__table"
        style={tableStyle}
        onClick={onClick}
        onKeyDown={onKeyDown}
        onDoubleClick={onDoubleClick}
        onMouseDown={onMouseDown}
      >
        <thead className="runs__head">
          <tr aria-rowindex={1} className="runs__header-row">
            {columns.map((c) => {
              const dir = sort?.key === c.id ? sort.dir : null;
              // The mark sits on the side away from the values, so a right-aligned label stays over its numbers.
              const mark = (
                <span className="runs__sort-mark" aria-hidden="true">
                  {dir === 'asc' ? '▲' : dir === 'desc' ? '▼' : ''}
                </span>
              );
              return (
                <th
                  key={c.id}
                  scope="col"
                  aria-sort={dir ? ARIA_SORT[dir] : 'none'}
                  className={c.align === 'end' ? 'runs__cell runs__cell--end' : 'runs__cell'}
                >
                  <button
                    type="button"
                    className={dir ? 'runs__sort is-sorted' : 'runs__sort'}
                    title={`${c.title ?? c.label}. Sort: ascending, descending, file order`}
                    onClick={() => onSort(c.id)}
                  >
                    {c.align === 'end' && mark}
                    {c.label}
                    {c.align !== 'end' && mark}
                  </button>
                </th>
              );
            })}
          </tr>
        </thead>
        <tbody className="runs__body" style={{ height: virtualizer.getTotalSize() }}>
          {virtualizer.getVirtualItems().map((item) => {
            const index = rows[item.index];
            const rollout = index === undefined ? undefined : rollouts[index];
            if (index === undefined || !rollout) return null;
            return (
              <RunRow
                key={item.key}
                rollout={rollout}
                policy={policies[index] ?? null}
                advantage={advantages[index] ?? null}
                columns={columns}
                index={index}
                position={item.index}
                selected={index === selectedIndex}
                start={item.start - HEADER_HEIGHT}
              />
            );
          })}
        </tbody>
      </table>
      {rows.length === 0 && <p className="runs__none">No rollout matches the filters.</p>}
    </div>
  );
}
