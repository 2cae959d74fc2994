import { useQuery } from '@tanstack/react-query';
import { useVirtualizer, type Virtualizer } from '@tanstack/react-virtual';
import { type KeyboardEvent, type RefObject, useCallback, useEffect, useRef, useState } from 'react';
import type { Rollout } from '../../../format';
import { HUGE_ROWS, isQwenTokenizer, qwenTokenizerOptions } from '../../../load';
import { selectStep, useSelectedDecoder } from '../../../state';
import { FocusOnArrival } from '../../shared/FocusOnArrival';
import { EndLane } from './EndLane';
import { GraderLane } from './GraderLane';
import { ESTIMATE, openingOffset } from './pageOpening';
import type { StepItem, StepsModel } from './stepsModel';
import { TaskLane } from './TaskLane';
import { TurnRow } from './TurnRow';
import type { Expanded } from './useExpanded';

/** Height of the sticky column header inside the scroller, in px. Keep in step with `.steps__columns`. */
const HEADER_HEIGHT = 26;

/** A row's height from its ResizeObserver entry; until one arrives, what is known or guessed. */
function observedSize(el: Element, entry: ResizeObserverEntry | undefined, v: Virtualizer<HTMLElement, Element>): number {
  const box = entry?.borderBoxSize?.[0];
  if (box) return Math.round(box.blockSize);
  const i = v.indexFromElement(el);
  return v.itemSizeCache.get(v.options.getItemKey(i)) ?? v.options.estimateSize(i);
}

function itemLabel(item: StepItem): string {
  switch (item.kind) {
    case 'task':
      return 'Task';
    case 'end':
      return 'Termination';
    case 'grader':
      return 'Grader verdict';
    default:
      return item.step !== null ? `Step ${item.step}` : `Segment ${item.segment} (no step)`;
  }
}

/**
 * What the view holds in place while rows are measured or grow (a context decoding once the tokenizer
 * loads, a row measured for the first time): the selected step, at the height the reader saw it, or
 * the end after End. Without it the row the reader just went to slides away under them. It lets go
 * when the reader scrolls.
 */
export type Hold = 'selected' | 'end' | null;

interface Props {
  record: Rollout;
  model: StepsModel;
  /** The page's rows in the model, [from, from + count). */
  from: number;
  count: number;
  /** The selected row's index on this page, or null when it is elsewhere. */
  local: number | null;
  selectedStep: number | null;
  hold: RefObject<Hold>;
  /** The folds the reader opened, held above the pages so that a page turned back to keeps them. */
  expanded: Expanded;
  page: number;
  pages: number;
  onPage: (page: number) => void;
}

/**
 * One page of the steps, virtualized. It is mounted again for each page (keyed by it), with its
 * scroller already at the selected row (openingOffset): a page starts at its top unless it holds
 * the selected step.
 */
export function StepsPage({ record, model, from, count, local, selectedStep, hold, expanded, page, pages, onPage }: Props) {
  const decoder = useSelectedDecoder();
  const scroller = useRef<HTMLElement | null>(null);
  const { itemAt, stepCount } = model;
  const [opening] = useState(() => openingOffset(model, from, local));
  // Set before the virtualizer reads the scroller (its layout effect runs after this ref is attached).
  const place = useCallback(
    (el: HTMLElement | null) => {
      scroller.current = el;
      if (el && opening > 0) el.scrollTop = opening;
    },
    [opening],
  );
  // Only watches the load the page started (useDecoder): until it ends, contexts show token ids.
  const tokenizer = useQuery({ ...qwenTokenizerOptions(), enabled: false });
  const waiting = decoder?.source !== 'tokenizer' && decoder?.source !== 'text' && isQwenTokenizer(record) && !tokenizer.error;
  const decoding = waiting ? 'loading the Qwen3 tokenizer: token ids until it has loaded…' : (decoder?.note ?? 'no decoder');
  const decodingFine = !waiting && decoder !== null && decoder.source !== 'none';

  const virtualizer = useVirtualizer({
    count,
    getScrollElement: () => scroller.current,
    estimateSize: (i) => ESTIMATE[model.kindAt(from + i) ?? 'turn'],
    initialOffset: opening,
    // One row beyond the view: a turn's row holds its context, thousands of characters to lay out, and
    // three more of them were a fifth of the click that opens a rollout of a run (docs/adr/0038).
    overscan: 1,
    // The sticky column header sits above the rows inside the scroller.
    scrollMargin: HEADER_HEIGHT,
    scrollPaddingStart: HEADER_HEIGHT,
    // The row's number in the whole list: a number, made without allocating, and stable for this model.
    // The virtualizer asks for every row of the page each time a mounted row's size changes; a string
    // key per row was that many strings made and hashed each time.
    getItemKey: (i) => from + i,
    // A huge rollout's rows take their size from the ResizeObserver (one layout for all rows that
    // mounted) instead of reading offsetHeight as each mounts: each read forced a layout, and each
    // measurement recomputed the positions of the page's rows.
    measureElement: model.count > HUGE_ROWS ? observedSize : undefined,
  });

  /** Where the held step's top sits in the view, in px from the scroller's top. */
  const heldAt = useRef<number | null>(null);
  const letGo = () => {
    hold.current = null;
  };

  // Bring the selected step into view when it is not (a link, a revert marker, the keyboard); a step
  // whose top is already on screen stays where it is.
  const showSelected = useCallback(() => {
    const el = scroller.current;
    if (local === null || !el) return;
    const m = virtualizer.measurementsCache[local];
    const top = m ? m.start - el.scrollTop : Number.NaN;
    if (top >= HEADER_HEIGHT && top < el.clientHeight - 48) {
      heldAt.current = top;
      return;
    }
    heldAt.current = HEADER_HEIGHT;
    virtualizer.scrollToIndex(local, { align: 'start' });
  }, [local, virtualizer]);

  useEffect(() => {
    // End pressed on another page turned to this one: it holds the end until the reader scrolls.
    if (local !== null || hold.current !== 'end') hold.current = 'selected';
    showSelected();
  }, [showSelected, local, hold]);

  const totalSize = virtualizer.getTotalSize();
  useEffect(() => {
    const el = scroller.current;
    if (totalSize === 0 || !el) return;
    if (hold.current === 'end') virtualizer.scrollToIndex(count - 1, { align: 'end' });
    if (hold.current !== 'selected' || local === null) return;
    const m = virtualizer.measurementsCache[local];
    if (!m || heldAt.current === null) return showSelected();
    const offset = m.start - heldAt.current;
    if (Math.abs(el.scrollTop - offset) > 1) virtualizer.scrollToOffset(offset);
  }, [totalSize, count, virtualizer, showSelected, local, hold]);

  const onKeyDown = (e: KeyboardEvent<HTMLElement>) => {
    // A key pressed inside a row (Tab, Page Down on a focused button, Enter on a fold) may scroll or
    // change the layout under the reader: let go. On the list itself ↑/↓ select a step (held by the
    // selection effect) and End holds the end.
    const own = e.target === e.currentTarget;
    hold.current = own && e.key === 'End' ? 'end' : own && (e.key === 'ArrowUp' || e.key === 'ArrowDown') ? 'selected' : null;
    if (!own) return;
    if (e.key === 'Home' || e.key === 'End') {
      // The rows past the view do not exist yet: the virtualizer scrolls to the first or last one (on
      // the first or last page).
      e.preventDefault();
      const edge = e.key === 'Home' ? 0 : pages - 1;
      if (edge !== page) onPage(edge);
      else virtualizer.scrollToIndex(e.key === 'Home' ? 0 : count - 1, { align: e.key === 'Home' ? 'start' : 'end' });
      return;
    }
    // Steps are numbered 1..stepCount, each with a row: ↓/↑ go to the next or previous number.
    if (stepCount === 0 || (e.key !== 'ArrowDown' && e.key !== 'ArrowUp')) return;
    const next = selectedStep === null ? 1 : selectedStep + (e.key === 'ArrowDown' ? 1 : -1);
    e.preventDefault();
    selectStep(Math.max(1, Math.min(stepCount, next)));
  };

  return (
    <section
      ref={place}
      className="steps__scroll"
      aria-label="Rollout steps"
      // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard (axe scrollable-region-focusable); ↑/↓ there move the selected step, Home/End go to the task and the grader
      tabIndex={0}
      onKeyDown={onKeyDown}
      onWheel={letGo}
      onPointerDown={letGo}
    >
      <FocusOnArrival target={scroller} />
      <div className="steps__columns" aria-hidden="true">
        <span />
        <span>Action · what the model generated</span>
        <span>Observation · what the tool returned</span>
        {/* Short enough that the decoding note fits beside it; the whole description is the tooltip. */}
        <span title={`Model-visible context: what the model saw before acting. Contexts: ${decoding}`}>
          Model-visible context
          <span className={decodingFine ? 'steps__decoding' : 'steps__decoding steps__decoding--none'}> · {decoding}</span>
        </span>
      </div>
      <ul className="steps__canvas" aria-label="Steps" style={{ height: virtualizer.getTotalSize() }}>
        {virtualizer.getVirtualItems().map((v) => {
          const item = itemAt(from + v.index);
          if (!item) return null;
          const selected = item.kind === 'turn' && item.step !== null && item.step === selectedStep;
          return (
            <li
              key={v.key}
              ref={virtualizer.measureElement}
              data-index={v.index}
              aria-label={itemLabel(item)}
              aria-current={selected ? 'true' : undefined}
              className="steps__item"
              style={{ transform: `translateY(${v.start - HEADER_HEIGHT}px)` }}
            >
              {item.kind === 'task' && <TaskLane record={record} />}
              {item.kind === 'turn' && (
                <TurnRow
                  turn={item}
                  record={record}
                  decoder={decoder}
                  pending={waiting}
                  selected={selected}
                  expanded={expanded}
                  onSelect={selectStep}
                  onGoToStep={selectStep}
                />
              )}
              {item.kind === 'end' && <EndLane record={record} finish={model.finish} />}
              {item.kind === 'grader' && <GraderLane record={record} expanded={expanded} />}
            </li>
          );
        })}
      </ul>
    </section>
  );
}
