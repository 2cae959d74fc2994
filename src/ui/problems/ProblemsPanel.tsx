import { useVirtualizer } from '@tanstack/react-virtual';
import { useRef } from 'react';
import { formatCount } from '../../analysis';
import { useProblems, useProblemsOpen, useUiActions } from '../../state';
import { useStillReading } from '../shared/useStillReading';
import './problems.css';

/** Row height in px; `.problems__item` in problems.css has the same height. */
const ITEM_HEIGHT = 26;

/** Lines that did not load, by file and line number; collapsible, with a count that shows when closed. */
export function ProblemsPanel() {
  const problems = useProblems();
  const open = useProblemsOpen();
  const { setProblemsOpen } = useUiActions();
  // While lines are still being read, "every line loaded" would be a claim about lines not read yet.
  const reading = useStillReading();
  return (
    <section className={open ? 'problems is-open' : 'problems'} aria-label="Problems">
      <button type="button" className="problems__toggle" aria-expanded={open} onClick={() => setProblemsOpen(!open)}>
        <span className="problems__chevron" aria-hidden="true">
          {open ? '▾' : '▸'}
        </span>
        Problems
        <span className={problems.length > 0 ? 'problems__badge has-problems' : 'problems__badge'}>{formatCount(problems.length)}</span>
        <span className="problems__caption">
          {problems.length === 0
            ? reading
              ? 'no line has failed so far'
              : 'every line loaded'
            : `lines that did not load${reading ? ' so far' : ''}; all other lines are shown above`}
        </span>
      </button>
      {open && problems.length > 0 && <ProblemList problems={problems} />}
    </section>
  );
}

function ProblemList({ problems }: { problems: ReturnType<typeof useProblems> }) {
  const scroller = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: problems.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => ITEM_HEIGHT,
    overscan: 10,
  });
  return (
    <div ref={scroller} className="problems__scroller">
      <ul className="problems__list" style={{ height: virtualizer.getTotalSize() }}>
        {virtualizer.getVirtualItems().map((item) => {
          const p = problems[item.index];
          if (!p) return null;
          return (
            <li key={item.key} className="problems__item" style={{ transform: `translateY(${item.start}px)` }}>
              <span className="problems__file mono" title={p.file}>
                {p.file}
              </span>
              <span className="problems__line">line {p.line}</span>
              <span className="problems__code mono">{p.code}</span>
              <span className="problems__message" title={p.message}>
                {p.message}
              </span>
            </li>
          );
        })}
      </ul>
    </div>
  );
}
