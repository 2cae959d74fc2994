import { useVirtualizer } from '@tanstack/react-virtual';
import { useRef } from 'react';
import type { AlignedRow, Alignment } from '../../analysis';
import type { Rollout, Step } from '../../format';

const ROW_HEIGHT = 26;
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
  const scroller = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: alignment.rows.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 12,
  });
  return (
    <div className="aligned" ref={scroller}>
      <ul className="aligned__list" aria-label="Aligned steps" style={{ height: virtualizer.getTotalSize() }}>
        {virtualizer.getVirtualItems().map((item) => {
          const row = alignment.rows[item.index];
          if (!row) return null;
          const first = item.index === alignment.firstDivergence;
          return (
            <li
              key={item.index}
              className={`aligned__row aligned__row--${row.kind}${item.index === selected ? ' aligned__row--selected' : ''}`}
              style={{ transform: `translateY(${item.start}px)`, height: ROW_HEIGHT }}
            >
              <button type="button" className="aligned__button" aria-pressed={item.index === selected} onClick={() => onSelect(item.index)}>
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
