import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useRef } from 'react';
import type { ReviewQueueItem } from '../../format';
import type { ReviewVerdict } from '../../load';
import type { ItemReviews } from './queueModel';
import { reasonKind, reasonText } from './queueModel';

/** Row height in px; `.queue-item` in queue.css has the same height. */
const ROW_HEIGHT = 36;

const MARK: Record<ReviewVerdict, string> = { agree: '✓', disagree: '✗', unsure: '?' };

interface Props {
  items: readonly ReviewQueueItem[];
  /** The reviewer's items, as indexes into `items`, in queue order. */
  mine: readonly number[];
  /** The position in `mine` shown as current. */
  current: number;
  me: string;
  reviews: ItemReviews;
  pageKeys: readonly (string | null)[];
  onPick(position: number): void;
  onOpen(position: number): void;
}

const label = (i: ReviewQueueItem) => (i.attempt_id === null ? i.rollout_id : `${i.rollout_id} · ${i.attempt_id}`);

/** The reviewer's items in queue order, each with why it is there and whether it is reviewed; virtualized. */
export function QueueList({ items, mine, current, me, reviews, pageKeys, onPick, onOpen }: Props) {
  const scroller = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: mine.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 12,
  });
  useEffect(() => {
    if (current >= 0) virtualizer.scrollToIndex(current, { align: 'auto' });
  }, [current, virtualizer]);
  return (
    <>
      <div className="queue-list__head" aria-hidden="true">
        <span>#</span>
        <span>You</span>
        <span>Rollout</span>
        <span>Task</span>
        <span>Grader</span>
        <span>Why it is here</span>
        <span className="queue-item__others">Others</span>
      </div>
      <div ref={scroller} className="queue-list">
        <div
          role="listbox"
          aria-label="Your items"
          tabIndex={0}
          aria-activedescendant={current >= 0 ? `queue-item-${current}` : undefined}
          className="queue-list__inner"
          style={{ height: virtualizer.getTotalSize() }}
        >
          {virtualizer.getVirtualItems().map((row) => {
            const index = mine[row.index];
            const item = index === undefined ? undefined : items[index];
            if (index === undefined || !item) return null;
            const mineDone = reviews[index]?.get(me);
            const others = [...(reviews[index] ?? [])].filter(([who]) => who !== me);
            return (
              // biome-ignore lint/a11y/useKeyWithClickEvents: the page's keys (j / k / Enter) move and open; a click is the mouse's way.
              <div
                key={row.key}
                id={`queue-item-${row.index}`}
                role="option"
                tabIndex={-1}
                aria-selected={row.index === current}
                className="queue-item"
                style={{ transform: `translateY(${row.start}px)` }}
                onClick={() => onPick(row.index)}
                onDoubleClick={() => onOpen(row.index)}
              >
                <span className="queue-item__pos">{row.index + 1}</span>
                <span className={`queue-item__status queue-item__status--${mineDone?.verdict ?? 'todo'}`}>
                  {mineDone ? `${MARK[mineDone.verdict]} ${mineDone.verdict}` : 'to review'}
                </span>
                <span className="queue-item__id mono" title={item.rollout}>
                  {label(item)}
                </span>
                <span className="queue-item__task" title={item.task_id}>
                  {item.task_id}
                </span>
                <span className="queue-item__verdict">{item.verdict ?? 'none'}</span>
                <span className={`queue-reason queue-reason--${reasonKind(item.reason)}`} title={item.reason}>
                  {reasonText(item.reason)}
                </span>
                <span className="queue-item__others faint">
                  {pageKeys[index] === null ? 'not in the loaded data' : others.map(([who, r]) => `${who} ${MARK[r.verdict]}`).join(' · ')}
                </span>
              </div>
            );
          })}
        </div>
      </div>
    </>
  );
}
