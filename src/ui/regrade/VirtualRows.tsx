import { useVirtualizer } from '@tanstack/react-virtual';
import { type ReactNode, useRef } from 'react';

/** Heights in px; `.regrade-rows__row` and `.regrade-rows__head tr` in regrade.css have the same. */
const ROW_HEIGHT = 32;
const HEAD_HEIGHT = 30;

interface Props {
  label: string;
  /** The grid's columns (CSS grid-template-columns), shared by the head and every row. */
  columns: string;
  head: readonly string[];
  count: number;
  /** Row `index`'s cells (`<td>`s). */
  row: (index: number) => ReactNode;
}

/** A table of many rows (a run's flips or groups), virtualized: only the rows in view are in the page. */
export function VirtualRows({ label, columns, head, count, row }: Props) {
  const scroller = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_HEIGHT,
    // The sticky head sits above the rows inside the scroller.
    scrollMargin: HEAD_HEIGHT,
    overscan: 12,
  });
  return (
    <div ref={scroller} className="regrade-rows">
      <table aria-label={label} aria-rowcount={count + 1} className="regrade-rows__table">
        <thead className="regrade-rows__head">
          <tr aria-rowindex={1} style={{ gridTemplateColumns: columns }}>
            {head.map((h) => (
              <th key={h} scope="col">
                {h}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="regrade-rows__body" style={{ height: virtualizer.getTotalSize() }}>
          {virtualizer.getVirtualItems().map((v) => (
            <tr
              key={v.key}
              aria-rowindex={v.index + 2}
              className="regrade-rows__row"
              style={{ gridTemplateColumns: columns, transform: `translateY(${v.start - HEAD_HEIGHT}px)` }}
            >
              {row(v.index)}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
