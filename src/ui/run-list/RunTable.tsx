import { useVirtualizer } from '@tanstack/react-virtual';
import { type CSSProperties, type KeyboardEvent, type MouseEvent, useEffect, useRef } from 'react';
import type { RolloutSummary } from '../../analysis';
import { type Column, gridTemplate, HEADER_HEIGHT, ROW_HEIGHT } from './columns';
import { RunRow } from './RunRow';

interface Props {
  rollouts: readonly RolloutSummary[];
  columns: readonly Column[];
  selectedIndex: number;
  onSelect: (index: number | null) => void;
  /** Opens a rollout's inspector (Enter, double-click). */
  onOpen: (index: number) => void;
}

/**
 * The rollouts as a virtualized grid: only the rows in view (plus a margin) are in the DOM. The table
 * is the one focusable, interactive element: a click finds its row by `data-index`, arrow keys move.
 */
export function RunTable({ rollouts, columns, selectedIndex, onSelect, onOpen }: Props) {
  const scroller = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: rollouts.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_HEIGHT,
    // The sticky header sits above the rows inside the same scroller.
    scrollMargin: HEADER_HEIGHT,
    overscan: 12,
  });

  // Bring a row selected from a link into view once, when the rows first arrive.
  const scrolledFor = useRef<readonly RolloutSummary[] | null>(null);
  useEffect(() => {
    if (scrolledFor.current === rollouts) return;
    scrolledFor.current = rollouts;
    if (selectedIndex >= 0) virtualizer.scrollToIndex(selectedIndex, { align: 'center' });
  }, [rollouts, selectedIndex, virtualizer]);

  const onClick = (e: MouseEvent<HTMLTableElement>) => {
    const row = e.target instanceof Element ? e.target.closest<HTMLElement>('tr[data-index]') : null;
    const index = Number(row?.dataset.index);
    if (row && Number.isInteger(index)) onSelect(index);
  };

  const onDoubleClick = (e: MouseEvent<HTMLTableElement>) => {
    const row = e.target instanceof Element ? e.target.closest<HTMLElement>('tr[data-index]') : null;
    const index = Number(row?.dataset.index);
    if (row && Number.isInteger(index)) onOpen(index);
  };

  const onKeyDown = (e: KeyboardEvent<HTMLTableElement>) => {
    if (e.key === 'Escape') {
      onSelect(null);
      return;
    }
    if (e.key === 'Enter' && selectedIndex >= 0) {
      e.preventDefault();
      onOpen(selectedIndex);
      return;
    }
    const last = rollouts.length - 1;
    const page = Math.max(1, Math.floor((scroller.current?.clientHeight ?? 0) / ROW_HEIGHT) - 1);
    const moves: Record<string, number> = {
      ArrowDown: selectedIndex + 1,
      ArrowUp: selectedIndex < 0 ? 0 : selectedIndex - 1,
      PageDown: selectedIndex + page,
      PageUp: selectedIndex - page,
      Home: 0,
      End: last,
    };
    const to = moves[e.key];
    if (to === undefined || last < 0) return;
    e.preventDefault();
    const index = Math.max(0, Math.min(last, to));
    onSelect(index);
    virtualizer.scrollToIndex(index);
  };

  const style = { '--runs-cols': gridTemplate(columns) } as CSSProperties;
  return (
    <div ref={scroller} className="runs" style={style}>
      <table
        // biome-ignore lint/a11y/noNoninteractiveElementToInteractiveRole: a selectable table is an ARIA grid (rows carry aria-selected, arrow keys move)
        role="grid"
        aria-label="Rollouts"
        aria-rowcount={rollouts.length + 1}
        tabIndex={0}
        className="runs__table"
        onClick={onClick}
        onKeyDown={onKeyDown}
        onDoubleClick={onDoubleClick}
      >
        <thead className="runs__head">
          <tr aria-rowindex={1} className="runs__header-row">
            {columns.map((c) => (
              <th key={c.id} scope="col" title={c.title} className={c.align === 'end' ? 'runs__cell runs__cell--end' : 'runs__cell'}>
                {c.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="runs__body" style={{ height: virtualizer.getTotalSize() }}>
          {virtualizer.getVirtualItems().map((item) => {
            const rollout = rollouts[item.index];
            if (!rollout) return null;
            return (
              <RunRow
                key={item.key}
                rollout={rollout}
                columns={columns}
                index={item.index}
                selected={item.index === selectedIndex}
                start={item.start - HEADER_HEIGHT}
              />
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
