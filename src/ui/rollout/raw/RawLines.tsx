import { useVirtualizer } from '@tanstack/react-virtual';
import { type ReactNode, useEffect, useRef } from 'react';
import type { JsonLine } from './jsonLines';

/** A line's height before it is measured: one line of 12px text at 1.5. */
const LINE_HEIGHT = 18;
/** Lines left below the view when more are read (a screen is about 40). */
const READ_AHEAD = 200;

interface Props {
  lines: readonly JsonLine[];
  /** Whether every line is read; if not, `onNearEnd` is asked for more as the reader scrolls down. */
  complete: boolean;
  onNearEnd: () => void;
  renderLine: (line: JsonLine, index: number) => ReactNode;
}

/**
 * A huge record's raw JSON as a virtualized list: only the lines near the view are drawn (a million
 * steps are some eleven million lines; drawing the first 1,500 at once was an 85 ms task), and more
 * lines are read as the end of those read comes near. Lines wrap, so each is measured when drawn.
 */
export function RawLines({ lines, complete, onNearEnd, renderLine }: Props) {
  const scroller = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: lines.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => LINE_HEIGHT,
    overscan: 20,
  });
  const items = virtualizer.getVirtualItems();
  const last = items[items.length - 1]?.index ?? 0;
  useEffect(() => {
    if (!complete && last > lines.length - READ_AHEAD) onNearEnd();
  }, [complete, last, lines.length, onNearEnd]);
  return (
    <div className="raw__doc" role="document" aria-label="Raw JSON" ref={scroller}>
      <div className="raw__lines" style={{ height: virtualizer.getTotalSize() }}>
        {items.map((item) => (
          <div
            key={item.key}
            data-index={item.index}
            ref={virtualizer.measureElement}
            className="raw__slot"
            style={{ transform: `translateY(${item.start}px)` }}
          >
            {renderLine(lines[item.index] as JsonLine, item.index)}
          </div>
        ))}
      </div>
    </div>
  );
}
