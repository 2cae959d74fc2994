import { type Review, type ReviewVerdict, reviewKey } from '../../format';

/**
 * An item is a rollout, found by the review key (`rollout_id`, plus `#attempt_id`): the one key the
 * records, a regrade's rows and the reviews all carry.
 */
export type ItemKey = string;

type RaterKind = 'grader' | 'regrader' | 'reviewer';

/** One rater's labels, and how many of its judgements gave no label, by reason. */
export interface Rater {
  /** Unique among the raters: `grader`, `regrader N` (in the order given), `reviewer NAME`. */
  id: string;
  kind: RaterKind;
  /** The grader command of a regrader, the reviewer's name as written; empty for the grader. */
  source: string;
  labels: Map<ItemKey, string>;
  excluded: Map<string, number>;
}

/** A reason an item has no label from a rater. */
export const EXCLUDED = {
  noVerdict: 'no verdict',
  unsure: 'unsure',
  noGraderVerdict: 'no grader verdict to agree with',
  noOpposite: 'disagree with a verdict other than pass/fail',
  conflict: 'two different labels for one rollout',
} as const;

/** What the raters need of a record: its key, task and `grading.verdict`. */
export interface GradedRollout {
  rollout_id: string;
  attempt_id: string | null;
  task_id: string;
  verdict: string | null;
}

/** What the raters need of a regrade row (src/cli/regrade/rows.ts). */
export interface RegradeLabel {
  rollout_id: string;
  attempt_id: string | null;
  task_id: string;
  grader: string;
  new_verdict: string | null;
  error_kind: string | null;
}

const count = (m: Map<string, number>, reason: string) => m.set(reason, (m.get(reason) ?? 0) + 1);

/** Collects labels; a rollout labelled twice differently by one rater has no label from it, counted once. */
class Labels {
  readonly labels = new Map<ItemKey, string>();
  readonly excluded = new Map<string, number>();
  private readonly conflicted = new Set<ItemKey>();

  label(key: ItemKey, label: string): void {
    if (this.conflicted.has(key)) return;
    const before = this.labels.get(key);
    if (before === undefined || before === label) {
      this.labels.set(key, label);
      return;
    }
    this.labels.delete(key);
    this.conflicted.add(key);
    count(this.excluded, EXCLUDED.conflict);
  }

  exclude(reason: string): void {
    count(this.excluded, reason);
  }
}

/** The grader: each record's `grading.verdict`; a record with none is excluded, counted. */
export function graderRater(records: Iterable<GradedRollout>): Rater {
  const l = new Labels();
  for (const r of records) {
    if (r.verdict === null) l.exclude(EXCLUDED.noVerdict);
    else l.label(reviewKey(r), r.verdict);
  }
  return { id: 'grader', kind: 'grader', source: '', labels: l.labels, excluded: l.excluded };
}

/**
 * One rater per grader command, in the order first seen: each row's new verdict; a row with an error
 * (no artifact, a crash, a timeout...) is excluded and counted by its kind, a row with no verdict too.
 * `first` numbers them on from an earlier call's regraders.
 */
export function regraderRaters(rows: Iterable<RegradeLabel>, first = 1): Rater[] {
  const byGrader = new Map<string, Labels>();
  for (const r of rows) {
    const l = byGrader.get(r.grader) ?? new Labels();
    byGrader.set(r.grader, l);
    if (r.error_kind !== null) l.exclude(r.error_kind);
    else if (r.new_verdict === null) l.exclude(EXCLUDED.noVerdict);
    else l.label(reviewKey(r), r.new_verdict);
  }
  return [...byGrader].map(([grader, l], i) => ({
    id: `regrader ${first + i}`,
    kind: 'regrader',
    source: grader,
    labels: l.labels,
    excluded: l.excluded,
  }));
}

/**
 * A reviewer's label for a rollout, from their judgement of the grader's verdict: `agree` is that
 * verdict, `disagree` its opposite (pass <-> fail; any other verdict has none), `unsure` no label.
 * Returns the label, or the reason there is none.
 */
export function reviewerLabel(verdict: ReviewVerdict, graderVerdict: string | undefined): { label: string } | { excluded: string } {
  if (verdict === 'unsure') return { excluded: EXCLUDED.unsure };
  if (graderVerdict === undefined) return { excluded: EXCLUDED.noGraderVerdict };
  if (verdict === 'agree') return { label: graderVerdict };
  if (graderVerdict === 'pass') return { label: 'fail' };
  if (graderVerdict === 'fail') return { label: 'pass' };
  return { excluded: EXCLUDED.noOpposite };
}

/** One rater per reviewer name (sorted), their labels derived against the grader's (`reviewerLabel`). */
export function reviewerRaters(reviews: Iterable<Review>, grader: Rater): Rater[] {
  const byName = new Map<string, Labels>();
  for (const r of reviews) {
    const l = byName.get(r.reviewer) ?? new Labels();
    byName.set(r.reviewer, l);
    const key = reviewKey(r);
    const got = reviewerLabel(r.verdict, grader.labels.get(key));
    if ('label' in got) l.label(key, got.label);
    else l.exclude(got.excluded);
  }
  return [...byName]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([name, l]) => ({
      id: `reviewer ${name === '' ? '(no name)' : name}`,
      kind: 'reviewer',
      source: name,
      labels: l.labels,
      excluded: l.excluded,
    }));
}

/** Each item's task: the first `task_id` seen for its key, records before regrade rows (pass them in that order). */
export function itemTasks(
  ...sources: Iterable<{ rollout_id: string; attempt_id: string | null; task_id: string }>[]
): Map<ItemKey, string> {
  const tasks = new Map<ItemKey, string>();
  for (const source of sources) {
    for (const r of source) {
      const key = reviewKey(r);
      if (!tasks.has(key)) tasks.set(key, r.task_id);
    }
  }
  return tasks;
}
