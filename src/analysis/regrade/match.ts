import { type RegradeRow, reviewKey } from '../../format';

/** What matching needs of a loaded rollout. */
export interface RolloutPlace {
  file: string;
  line: number;
  rollout_id: string;
  attempt_id: string | null;
}

export interface RegradeMatch {
  /** Each loaded rollout's row of the regrade, index-aligned with the rollouts; undefined when it has none. */
  byRollout: (RegradeRow | undefined)[];
  /** Rows of the table that name no loaded rollout (another file, a step range not loaded, a changed source). */
  unmatched: RegradeRow[];
  /** Rows matched by the rollout key alone: the table names the file otherwise (a path from elsewhere). */
  byKey: number;
}

const sameRollout = (a: RolloutPlace, b: RolloutPlace) => a.rollout_id === b.rollout_id && a.attempt_id === b.attempt_id;

/**
 * Matches one grader's rows to loaded rollouts: by (file, line) first, when the rollout there is the
 * row's own; else by the rollout key (`rollout_id#attempt_id`) when exactly one loaded rollout has it.
 * The regrade names files as it was given them (`public/demo/rollouts.jsonl`) and the page as it opened
 * them (`rollouts.jsonl`), so the key is what joins a file regraded elsewhere. A rollout takes one row.
 */
export function matchRegradeRows(rollouts: readonly RolloutPlace[], rows: readonly RegradeRow[]): RegradeMatch {
  const byPlace = new Map<string, number>();
  const byId = new Map<string, number>();
  rollouts.forEach((r, i) => {
    byPlace.set(JSON.stringify([r.file, r.line]), i);
    const key = reviewKey(r);
    // A key two rollouts share (E_DUPLICATE_ROLLOUT) names neither: -1.
    byId.set(key, byId.has(key) ? -1 : i);
  });
  const byRollout: (RegradeRow | undefined)[] = rollouts.map(() => undefined);
  // Places first, so a row that fits only by key never takes the rollout another row names exactly.
  const rest: RegradeRow[] = [];
  for (const row of rows) {
    const at = byPlace.get(JSON.stringify([row.file, row.line]));
    const place = at === undefined ? undefined : rollouts[at];
    if (at !== undefined && place && sameRollout(place, row) && byRollout[at] === undefined) byRollout[at] = row;
    else rest.push(row);
  }
  const unmatched: RegradeRow[] = [];
  let byKey = 0;
  for (const row of rest) {
    const i = byId.get(reviewKey(row)) ?? -1;
    if (i >= 0 && byRollout[i] === undefined) {
      byRollout[i] = row;
      byKey++;
    } else unmatched.push(row);
  }
  return { byRollout, unmatched, byKey };
}
