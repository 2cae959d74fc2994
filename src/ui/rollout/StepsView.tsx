import { useQuery } from '@tanstack/react-query';
import { useVirtualizer, type Virtualizer } from '@tanstack/react-virtual';
import { type KeyboardEvent, useCallback, useEffect, useRef, useState } from 'react';
import { plural } from '../../analysis';
import type { Rollout } from '../../format';
import { isQwenTokenizer, qwenTokenizerOptions } from '../../load';
import { type SelectedRollout, selectStep, useSelectedDecoder, useSelectedRollout, useSelection } from '../../state';
import { BuildingNote } from '../shared/BuildingNote';
import { TurnPager } from '../shared/TurnPager';
import { pageCount, pageOfTurn, turnsOfPage } from '../shared/turnPages';
import { useFocusOnArrival } from '../shared/useFocusOnArrival';
import { isHuge, usePass } from '../shared/usePass';
import { EndLane } from './steps/EndLane';
import { RolloutFindings } from './steps/FindingBadge';
import { GraderLane } from './steps/GraderLane';
import { type StepItem, type StepsModel, stepsModelPass } from './steps/stepsModel';
import { TaskLane } from './steps/TaskLane';
import { TurnRow } from './steps/TurnRow';
import { useExpanded } from './steps/useExpanded';
import './steps/steps.css';

/** Height of the sticky column header inside the scroller, in px. Keep in step with `.steps__columns`. */
const HEADER_HEIGHT = 26;

/** Turns on a page of a huge rollout's steps (turnPages.ts): 10,000 rows of ~240 px fit one element. */
const PAGE_TURNS = 10_000;

/** Past this many rows, rows are measured by the ResizeObserver only (observedSize). */
const HUGE_ROWS = 5_000;

/** A row's height from its ResizeObserver entry; until one arrives, what is known or guessed. */
function observedSize(el: Element, entry: ResizeObserverEntry | undefined, v: Virtualizer<HTMLElement, Element>): number {
  const box = entry?.borderBoxSize?.[0];
  if (box) return Math.round(box.blockSize);
  const i = v.indexFromElement(el);
  return v.itemSizeCache.get(v.options.getItemKey(i)) ?? v.options.estimateSize(i);
}

/** First guesses of row heights in px; every row is measured once it renders. */
const ESTIMATE: Record<StepItem['kind'], number> = { task: 110, turn: 240, end: 64, grader: 260 };

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
 * The rollout step by step: per turn what the model did (action), got back (observation) and saw
 * (model-visible context), between the task and the grader's private verdict. The selected step is
 * the URL's `step=`.
 */
export function StepsView() {
  const selected = useSelectedRollout();
  if (!selected?.record) return null;
  // A new rollout starts with its own scroll position and folds.
  return <StepsModelled key={selected.key} record={selected.record} summary={selected.summary} />;
}

/** The rows' model: at once, or for a huge rollout built in slices with a note saying how far. */
function StepsModelled({ record, summary }: { record: Rollout; summary: SelectedRollout['summary'] }) {
  const { value: model, done } = usePass(() => stepsModelPass(record, summary), isHuge(record), [record, summary]);
  if (!model) return <BuildingNote what={`Lining up ${plural(summary.steps, 'step')} with their generations and findings`} done={done} />;
  return <StepsList record={record} model={model} />;
}

/** A huge rollout's rows come in pages of turns: the page a row is on, and a page's rows [from, to). */
function rowPages(model: StepsModel) {
  const turns = model.count - 3;
  const pages = pageCount(turns, PAGE_TURNS);
  const pageOfRow = (row: number) => (row <= 0 ? 0 : row >= model.count - 2 ? pages - 1 : pageOfTurn(row - 1, turns, PAGE_TURNS));
  const rowsOf = (page: number) => {
    const { from, to } = turnsOfPage(page, turns, PAGE_TURNS);
    return { from: page === 0 ? 0 : from + 1, to: page === pages - 1 ? model.count : to + 1, turnsFrom: from, turnsTo: to };
  };
  return { turns, pages, pageOfRow, rowsOf };
}

function StepsList({ record, model }: { record: Rollout; model: StepsModel }) {
  const decoder = useSelectedDecoder();
  const selection = useSelection();
  const expanded = useExpanded();
  const scroller = useRef<HTMLElement>(null);
  useFocusOnArrival(scroller);
  const { itemAt, rowOfStep, stepCount } = model;
  const paging = rowPages(model);

  const selectedStep = selection.step !== null && rowOfStep(selection.step) !== undefined ? selection.step : null;
  const selectedRow = selectedStep === null ? null : (rowOfStep(selectedStep) ?? null);
  // The page follows the selected step (a link, ↑/↓, "go to step"); the pager moves it on its own.
  const [page, setPage] = useState(() => (selectedRow === null ? 0 : paging.pageOfRow(selectedRow)));
  const [followed, setFollowed] = useState(selectedRow);
  if (followed !== selectedRow) {
    setFollowed(selectedRow);
    if (selectedRow !== null) setPage(paging.pageOfRow(selectedRow));
  }
  const { from, to, turnsFrom, turnsTo } = paging.rowsOf(page);
  const count = to - from;
  /** The selected row's index on this page, or null when it is elsewhere. */
  const local = selectedRow !== null && selectedRow >= from && selectedRow < to ? selectedRow - from : null;
  // Only watches the load the page started (useDecoder): until it ends, contexts show token ids.
  const tokenizer = useQuery({ ...qwenTokenizerOptions(), enabled: false });
  const waiting = decoder?.source !== 'tokenizer' && decoder?.source !== 'text' && isQwenTokenizer(record) && !tokenizer.error;
  const decoding = waiting ? 'loading the Qwen3 tokenizer: token ids until it has loaded…' : (decoder?.note ?? 'no decoder');
  const decodingFine = !waiting && decoder !== null && decoder.source !== 'none';

  const virtualizer = useVirtualizer({
    count,
    getScrollElement: () => scroller.current,
    estimateSize: (i) => ESTIMATE[model.kindAt(from + i) ?? 'turn'],
    overscan: 3,
    // The sticky column header sits above the rows inside the scroller.
    scrollMargin: HEADER_HEIGHT,
    scrollPaddingStart: HEADER_HEIGHT,
    getItemKey: (i) => model.keyAt(from + i),
    // A huge rollout's rows take their size from the ResizeObserver (one layout for all rows that
    // mounted) instead of reading offsetHeight as each mounts: each read forced a layout, and each
    // measurement recomputed the positions of the page's 10,000 rows.
    measureElement: model.count > HUGE_ROWS ? observedSize : undefined,
  });

  // What the view holds in place while rows are measured or grow (a context decoding once the tokenizer
  // loads, a row measured for the first time): the selected step, at the height the reader saw it, or
  // the end after End. Without it the row the reader just went to slides away under them. It lets go
  // when the reader scrolls.
  const hold = useRef<'selected' | 'end' | null>('selected');
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
    hold.current = 'selected';
    showSelected();
  }, [showSelected]);

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
  }, [totalSize, count, virtualizer, showSelected, local]);

  // Another page starts at its top, unless it holds the selected step or the end.
  const shownPage = useRef(page);
  useEffect(() => {
    if (shownPage.current === page) return;
    shownPage.current = page;
    if (local === null && hold.current !== 'end') virtualizer.scrollToOffset(0);
  }, [page, local, virtualizer]);

  const select = selectStep;
  const toPage = (p: number) => {
    hold.current = null;
    setPage(p);
  };
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
      const edge = e.key === 'Home' ? 0 : paging.pages - 1;
      if (edge !== page) setPage(edge);
      else virtualizer.scrollToIndex(e.key === 'Home' ? 0 : count - 1, { align: e.key === 'Home' ? 'start' : 'end' });
      return;
    }
    // Steps are numbered 1..stepCount, each with a row: ↓/↑ go to the next or previous number.
    if (stepCount === 0 || (e.key !== 'ArrowDown' && e.key !== 'ArrowUp')) return;
    const next = selectedStep === null ? 1 : selectedStep + (e.key === 'ArrowDown' ? 1 : -1);
    e.preventDefault();
    select(Math.max(1, Math.min(stepCount, next)));
  };

  return (
    <div className="steps">
      <RolloutFindings findings={model.rolloutFindings} />
      {paging.pages > 1 && (
        <TurnPager
          label="Steps"
          page={page}
          pages={paging.pages}
          from={turnsFrom}
          to={turnsTo}
          turns={paging.turns}
          onPage={toPage}
          onGoToStep={select}
          steps={stepCount}
        />
      )}
      <section
        ref={scroller}
        className="steps__scroll"
        aria-label="Rollout steps"
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard (axe scrollable-region-focusable); ↑/↓ there move the selected step, Home/End go to the task and the grader
        tabIndex={0}
        onKeyDown={onKeyDown}
        onWheel={letGo}
        onPointerDown={letGo}
      >
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
                    onSelect={select}
                    onGoToStep={select}
                  />
                )}
                {item.kind === 'end' && <EndLane record={record} finish={model.finish} />}
                {item.kind === 'grader' && <GraderLane record={record} expanded={expanded} />}
              </li>
            );
          })}
        </ul>
      </section>
    </div>
  );
}
