import type { ReviewQueue, ReviewQueueItem } from '../../format';

/** What matching a queue item to the loaded rollouts needs of a row. */
interface RowIdentity {
  file: string;
  line: number;
  rollout_id: string;
  attempt_id: string | null;
}

const sameIds = (a: Pick<RowIdentity, 'rollout_id' | 'attempt_id'>, b: Pick<RowIdentity, 'rollout_id' | 'attempt_id'>) =>
  a.rollout_id === b.rollout_id && a.attempt_id === b.attempt_id;

/** Whether two names are one file: equal, or one the other inside a folder (`view DIR` names files `DIR/name`). */
const sameFile = (a: string, b: string) => a === b || a.endsWith(`/${b}`) || b.endsWith(`/${a}`);

/**
 * The loaded row of each queue item, or -1 when the data has none: the row at the item's line in its file
 * (the page names a served run's files with the run's folder in front) when it holds the same rollout,
 * else the row whose `rollout=` key is the item's, else the first row with its ids.
 */
export function matchQueueItems(items: readonly ReviewQueueItem[], rows: readonly RowIdentity[], keys: readonly string[]): number[] {
  const byLine = new Map<number, number[]>();
  const byKey = new Map<string, number>();
  const byIds = new Map<string, number>();
  const ids = (r: Pick<RowIdentity, 'rollout_id' | 'attempt_id'>) => JSON.stringify([r.rollout_id, r.attempt_id]);
  rows.forEach((r, i) => {
    const at = byLine.get(r.line);
    if (at) at.push(i);
    else byLine.set(r.line, [i]);
    if (!byIds.has(ids(r))) byIds.set(ids(r), i);
  });
  keys.forEach((k, i) => {
    if (!byKey.has(k)) byKey.set(k, i);
  });
  const fits = (i: number | undefined, item: ReviewQueueItem) => i !== undefined && rows[i] !== undefined && sameIds(rows[i], item);
  return items.map((item) => {
    const here = (byLine.get(item.line) ?? []).filter((i) => fits(i, item));
    const placed = here.find((i) => rows[i]?.file === item.file) ?? here.find((i) => sameFile(rows[i]?.file ?? '', item.file));
    if (placed !== undefined) return placed;
    const keyed = byKey.get(item.rollout);
    if (fits(keyed, item)) return keyed as number;
    return byIds.get(ids(item)) ?? -1;
  });
}

/** The indexes of the items given to `reviewer`, in queue order. */
export function itemsOf(queue: Pick<ReviewQueue, 'items'>, reviewer: string): number[] {
  const out: number[] = [];
  queue.items.forEach((item, i) => {
    if (item.reviewers.includes(reviewer)) out.push(i);
  });
  return out;
}

export interface ReviewerProgress {
  reviewer: string;
  assigned: number;
  /** Items given to this reviewer that this reviewer has reviewed. */
  done: number;
}

/** Done / assigned for every reviewer the queue names, in its order; `isDone(i, name)` says whether item i is reviewed by name. */
export function queueProgress(
  queue: Pick<ReviewQueue, 'items' | 'reviewers'>,
  isDone: (item: number, reviewer: string) => boolean,
): ReviewerProgress[] {
  const progress = new Map(queue.reviewers.map((r) => [r, { reviewer: r, assigned: 0, done: 0 }]));
  queue.items.forEach((item, i) => {
    for (const r of item.reviewers) {
      const p = progress.get(r);
      if (!p) continue;
      p.assigned++;
      if (isDone(i, r)) p.done++;
    }
  });
  return [...progress.values()];
}

/**
 * The next of `mine` (item indexes in queue order) after position `from` that is not done, going round
 * to the start; null when every other one is done. `from` -1 starts at the first.
 */
export function nextUndone(mine: readonly number[], from: number, isDone: (item: number) => boolean): number | null {
  const n = mine.length;
  for (let d = 1; d <= n; d++) {
    const pos = (((from + d) % n) + n) % n;
    if (pos === from) continue;
    const item = mine[pos];
    if (item !== undefined && !isDone(item)) return pos;
  }
  return null;
}
