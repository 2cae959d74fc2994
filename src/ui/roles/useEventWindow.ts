import { defaultRangeExtractor, type Range, useVirtualizer } from '@tanstack/react-virtual';
import { type RefObject, useEffect, useLayoutEffect, useState } from 'react';
import { type Row, WIDTH } from './layout';

/**
 * Rollouts up to this many events are drawn whole: the whole story is in the page (find in page, a
 * screen reader reading the list), and it costs little. Past it only the events near the view are
 * drawn; a 10,000-step rollout has 40,000 events, and drawing them all blocked the page for seconds.
 */
const DRAW_WHOLE = 400;
/** Events drawn above and below the view, so a fast scroll rarely shows an empty stretch. */
const OVERSCAN = 40;

function wholeOrNear(range: Range): number[] {
  if (range.count <= DRAW_WHOLE) return Array.from({ length: range.count }, (_, i) => i);
  return defaultRangeExtractor(range);
}

/** The nearest ancestor that scrolls vertically (the rollout panel), or the page. */
function scrollParent(el: Element | null): HTMLElement | null {
  for (let p = el?.parentElement ?? null; p; p = p.parentElement) {
    const { overflowY } = getComputedStyle(p);
    if (overflowY === 'auto' || overflowY === 'scroll') return p;
  }
  return document.scrollingElement instanceof HTMLElement ? document.scrollingElement : null;
}

/**
 * Which events of the diagram to draw, and a way to bring one into view. The SVG scales with its width,
 * so a row of `h` user units is `h × width / WIDTH` pixels tall: the window follows that scale.
 */
export function useEventWindow(svg: RefObject<SVGSVGElement | null>, rows: readonly Row[], height: number, current: number, reveal = -1) {
  const [scale, setScale] = useState(1);
  const [scroller, setScroller] = useState<HTMLElement | null>(null);
  const [margin, setMargin] = useState(0);

  useLayoutEffect(() => {
    const el = svg.current;
    if (!el) return;
    const parent = scrollParent(el);
    setScroller(parent);
    const measure = () => {
      setScale(el.clientWidth / WIDTH || 1);
      if (parent) setMargin(el.getBoundingClientRect().top - parent.getBoundingClientRect().top + parent.scrollTop);
    };
    measure();
    const ro = new ResizeObserver(measure);
    ro.observe(el);
    return () => ro.disconnect();
  }, [svg]);

  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scroller,
    // A row's share of the diagram runs from its top to the next row's top (the gap included).
    estimateSize: (i) => ((rows[i + 1]?.y ?? height) - (rows[i]?.y ?? 0)) * scale,
    paddingStart: (rows[0]?.y ?? 0) * scale,
    scrollMargin: margin,
    overscan: OVERSCAN,
    rangeExtractor: wholeOrNear,
  });

  // Sizes are computed, never measured: a new scale or new rows re-lay the window.
  // biome-ignore lint/correctness/useExhaustiveDependencies: estimateSize reads scale, rows and height; the virtualizer only re-reads it on measure().
  useEffect(() => virtualizer.measure(), [virtualizer, scale, rows, height]);

  // The current event of a playback is brought to the middle of the view, drawn or not.
  useEffect(() => {
    if (current < 0) return;
    const reduced = window.matchMedia('(prefers-reduced-motion: reduce)').matches;
    virtualizer.scrollToIndex(current, { align: 'center', behavior: reduced ? 'auto' : 'smooth' });
  }, [current, virtualizer]);

  // An event asked for by the URL (a huge rollout's step) is brought to the middle of the view, as a
  // played one is (the top is under the sticky controls), once laid out at its scale.
  // biome-ignore lint/correctness/useExhaustiveDependencies: scale and margin move where the event lies.
  useEffect(() => {
    if (reveal >= 0 && scroller) virtualizer.scrollToIndex(reveal, { align: 'center' });
  }, [reveal, scroller, virtualizer, scale, margin]);

  return virtualizer.getVirtualItems().map((v) => v.index);
}
