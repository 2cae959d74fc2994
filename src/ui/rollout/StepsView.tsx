import { useQuery } from '@tanstack/react-query';
import { useVirtualizer } from '@tanstack/react-virtual';
import { type KeyboardEvent, useCallback, useEffect, useMemo, useRef } from 'react';
import type { Rollout } from '../../format';
import { isQwenTokenizer, qwenTokenizerOptions } from '../../load';
import { type SelectedRollout, selectStep, useSelectedDecoder, useSelectedRollout, useSelection } from '../../state';
import { useFocusOnArrival } from '../shared/useFocusOnArrival';
import { EndLane } from './steps/EndLane';
import { RolloutFindings } from './steps/FindingBadge';
import { GraderLane } from './steps/GraderLane';
import { type StepItem, stepsModel } from './steps/stepsModel';
import { TaskLane } from './steps/TaskLane';
import { TurnRow } from './steps/TurnRow';
import { useExpanded } from './steps/useExpanded';
import './steps/steps.css';

/** Height of the sticky column header inside the scroller, in px. Keep in step with `.steps__columns`. */
const HEADER_HEIGHT = 26;

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
  return <StepsList key={selected.key} record={selected.record} summary={selected.summary} />;
}

function StepsList({ record, summary }: { record: Rollout; summary: SelectedRollout['summary'] }) {
  const decoder = useSelectedDecoder();
  const selection = useSelection();
  const model = useMemo(() => stepsModel(record, summary), [record, summary]);
  const expanded = useExpanded();
  const scroller = useRef<HTMLElement>(null);
  useFocusOnArrival(scroller);
  const { items, rowOfStep } = model;
  // Only watches the load the page started (useDecoder): until it ends, contexts show token ids.
  const tokenizer = useQuery({ ...qwenTokenizerOptions(), enabled: false });
  const waiting = decoder?.source !== 'tokenizer' && decoder?.source !== 'text' && isQwenTokenizer(record) && !tokenizer.error;
  const decoding = waiting ? 'loading the Qwen3 tokenizer: token ids until it has loaded…' : (decoder?.note ?? 'no decoder');
  const decodingFine = !waiting && decoder !== null && decoder.source !== 'none';

  const virtualizer = useVirtualizer({
    count: items.length,
    getScrollElement: () => scroller.current,
    estimateSize: (i) => ESTIMATE[items[i]?.kind ?? 'turn'],
    overscan: 3,
    // The sticky column header sits above the rows inside the scroller.
    scrollMargin: HEADER_HEIGHT,
    scrollPaddingStart: HEADER_HEIGHT,
    getItemKey: (i) => {
      const item = items[i];
      return item?.kind === 'turn' ? item.key : (item?.kind ?? i);
    },
  });

  const selectedStep = selection.step !== null && rowOfStep.has(selection.step) ? selection.step : null;
  const selectedRow = selectedStep === null ? null : (rowOfStep.get(selectedStep) ?? null);

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
    if (selectedRow === null || !el) return;
    const m = virtualizer.measurementsCache[selectedRow];
    const top = m ? m.start - el.scrollTop : Number.NaN;
    if (top >= HEADER_HEIGHT && top < el.clientHeight - 48) {
      heldAt.current = top;
      return;
    }
    heldAt.current = HEADER_HEIGHT;
    virtualizer.scrollToIndex(selectedRow, { align: 'start' });
  }, [selectedRow, virtualizer]);

  useEffect(() => {
    hold.current = 'selected';
    showSelected();
  }, [showSelected]);

  const totalSize = virtualizer.getTotalSize();
  useEffect(() => {
    const el = scroller.current;
    if (totalSize === 0 || !el) return;
    if (hold.current === 'end') virtualizer.scrollToIndex(items.length - 1, { align: 'end' });
    if (hold.current !== 'selected' || selectedRow === null) return;
    const m = virtualizer.measurementsCache[selectedRow];
    if (!m || heldAt.current === null) return showSelected();
    const offset = m.start - heldAt.current;
    if (Math.abs(el.scrollTop - offset) > 1) virtualizer.scrollToOffset(offset);
  }, [totalSize, items.length, virtualizer, showSelected, selectedRow]);

  const select = selectStep;
  const steps = useMemo(() => [...rowOfStep.keys()].sort((a, b) => a - b), [rowOfStep]);
  const onKeyDown = (e: KeyboardEvent<HTMLElement>) => {
    // A key pressed inside a row (Tab, Page Down on a focused button, Enter on a fold) may scroll or
    // change the layout under the reader: let go. On the list itself ↑/↓ select a step (held by the
    // selection effect) and End holds the end.
    const own = e.target === e.currentTarget;
    hold.current = own && e.key === 'End' ? 'end' : own && (e.key === 'ArrowUp' || e.key === 'ArrowDown') ? 'selected' : null;
    if (!own) return;
    if (e.key === 'Home' || e.key === 'End') {
      // The rows past the view do not exist yet: the virtualizer scrolls to the first or last one.
      e.preventDefault();
      virtualizer.scrollToIndex(e.key === 'Home' ? 0 : items.length - 1, { align: e.key === 'Home' ? 'start' : 'end' });
      return;
    }
    if (steps.length === 0) return;
    const at = selectedStep === null ? -1 : steps.indexOf(selectedStep);
    const to = e.key === 'ArrowDown' ? at + 1 : e.key === 'ArrowUp' ? at - 1 : null;
    const step = to === null ? undefined : steps[Math.max(0, Math.min(steps.length - 1, to))];
    if (step === undefined) return;
    e.preventDefault();
    select(step);
  };

  return (
    <div className="steps">
      <RolloutFindings findings={model.rolloutFindings} />
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
            const item = items[v.index];
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
                {item.kind === 'end' && <EndLane record={record} />}
                {item.kind === 'grader' && <GraderLane record={record} expanded={expanded} />}
              </li>
            );
          })}
        </ul>
      </section>
    </div>
  );
}
