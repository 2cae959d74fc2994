import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useRef } from 'react';
import type { AlignedRow, Alignment } from '../../analysis';
import type { Rollout, Step } from '../../format';
import { PAGE_ALIGNED_ROWS } from '../../load';
import { TurnPager } from '../shared/TurnPager';
import { pageCount, pageOfTurn, turnsOfPage } from '../shared/turnPages';

const ROW_HEIGHT = 26;
const ROWS = { items: 'rows', goTo: 'row' };
const MARK: Record<AlignedRow['kind'], string> = { same: '=', changed: '≠', 'only-a': 'A only', 'only-b': 'B only' };
const MARK_WORDS: Record<AlignedRow['kind'], string> = {
  same: 'same call',
  changed: 'same tool, other arguments',
  'only-a': 'only in A',
  'only-b': 'only in B',
};

function callText(step: Step | undefined): string {
  if (!step) return '';
  const args = step.args ? JSON.stringify(step.args) : '';
  return `${step.tool}${args.length > 2 ? ` ${args}` : ''}`;
}

/** The aligned tool calls, one row per pair (virtualized); a click shows that pair's diff. */
export function AlignedSteps({
  alignment,
  a,
  b,
  selected,
  onSelect,
}: {
  alignment: Alignment;
  a: Rollout;
  b: Rollout;
  selected: number;
  onSelect: (row: number) => void;
}) {
  const total = alignment.rows.length;
  const pages = pageCount(total, PAGE_ALIGNED_ROWS);
  const page = pageOfTurn(selected, total, PAGE_ALIGNED_ROWS);
  const { from, to } = turnsOfPage(page, total, PAGE_ALIGNED_ROWS);
  const list = <RowList key={page} alignment={alignment} from={from} to={to} a={a} b={b} selected={selected} onSelect={onSelect} />;
  if (pages === 1) return list;
  return (
    <div className="aligned-pages">
      <TurnPager
        label="Aligned steps"
        unit={ROWS}
        page={page}
        pages={pages}
        from={from}
        to={to}
        turns={total}
        onPage={(p) => onSelect(turnsOfPage(p, total, PAGE_ALIGNED_ROWS).from)}
        onGoToStep={(row) => onSelect(row - 1)}
        steps={total}
      />
      {list}
    </div>
  );
}

/** One page of aligned rows, [from, to), virtualized, scrolled to the selected row when it is on it. */
function RowList({
  alignment,
  from,
  to,
  a,
  b,
  selected,
  onSelect,
}: {
  alignment: Alignment;
  from: number;
  to: number;
  a: Rollout;
  b: Rollout;
  selected: number;
  onSelect: (row: number) => void;
}) {
  const scroller = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: to - from,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 12,
  });
  // A row chosen by number (or the first divergence, far down) is brought into view.
  useEffect(() => {
    const local = selected - from;
    if (local < 0 || local >= to - from) return;
    virtualizer.scrollToIndex(local, { align: 'auto' });
  }, [selected, from, to, virtualizer]);
  return (
    <div className="aligned" ref={scroller}>
      <ul className="aligned__list" aria-label="Aligned steps" style={{ height: virtualizer.getTotalSize() }}>
        {virtualizer.getVirtualItems().map((item) => {
          const index = from + item.index;
          const row = alignment.rows[index];
          if (!row) return null;
          const first = index === alignment.firstDivergence;
          return (
            <li
              key={index}
              className={`aligned__row aligned__row--${row.kind}${index === selected ? ' aligned__row--selected' : ''}`}
              style={{ transform: `translateY(${item.start}px)`, height: ROW_HEIGHT }}
            >
              <button type="button" className="aligned__button" aria-pressed={index === selected} onClick={() => onSelect(index)}>
                <span className="aligned__cell">{row.a === null ? '' : `${row.a + 1}. ${callText(a.steps?.[row.a])}`}</span>
                <span className="aligned__mark" title={MARK_WORDS[row.kind]}>
                  {MARK[row.kind]}
                  {first && <span className="aligned__first">first divergence</span>}
                </span>
                <span className="aligned__cell">{row.b === null ? '' : `${row.b + 1}. ${callText(b.steps?.[row.b])}`}</span>
              </button>
            </li>
          );
        })}
      </ul>
    </div>
  );
}
