import type { Rollout } from '../format';
import type { CompactRollout } from './compact';

/*
 * The scale policy of the huge-rollout mode (issue 30): when a rollout is huge, and the sizes its
 * chunks, slices and pages take, each said once here with why (docs/adr/0017, 0018, 0020). Passes and
 * chunked steps below this layer keep theirs in src/analysis (`PASS_CHUNK`, `CHUNKS_KEPT`,
 * `MANY_FINDINGS`): it imports nothing from src/load.
 */

/**
 * Huge: more than this many steps + segments (docs/adr/0017). Such a record is expanded in slices
 * (dataset/sliced.ts) and handed to the views as a promise, its views build their models in slices
 * (usePass) and page their turns, and a run's row keeps the index's counts rather than summarizing it
 * on the page. Below it, expanding and every whole-rollout pass cost a few ms: at once, as before.
 */
export const HUGE_RECORD = 5000;

/** Whether a record (or its compact form, by `size`) is past `HUGE_RECORD` steps + segments. */
export function isHugeRecord(record: Rollout | CompactRollout): boolean {
  const size = 'segments' in record ? record.segments.length + (record.steps?.length ?? 0) : record.size;
  return size > HUGE_RECORD;
}

/**
 * Past this many steps, an expanded record's steps stay JSON chunks, parsed when read (`chunkedArray`,
 * docs/adr/0018); up to it they are one plain array, as they always were. The same number as
 * `HUGE_RECORD`, by choice: below it the parsed steps are too few to cost the collector anything. A
 * bound of its own all the same: it counts steps alone, and is applied where a record is expanded.
 */
export const LAZY_STEPS = 5000;

/** Steps per chunk of a compact record's JSON (compact.ts): a chunk parses in about a millisecond. */
export const STEPS_PER_CHUNK = 2048;
/** Segment layouts per chunk; each segment also copies its context's ids when expanded. */
export const SEGMENTS_PER_CHUNK = 256;
/** Expanding yields after about this many ids (a segment's context may hold 100k). */
export const IDS_PER_YIELD = 1 << 20;

/**
 * Turns on a page of a huge rollout's Steps view and of its Four roles (src/ui/shared/turnPages.ts).
 * Steps: not the most one element holds (10,000 rows of ~240 px would fit): the virtualizer lays out
 * the whole page again each time a shown row is measured, about 15 times after turning to a far page,
 * so a page of 10,000 made that turn a task of 60–80 ms. Four roles: about 4 events a turn, and a
 * page's events are made, laid out and virtualized in one render, a few ms.
 */
export const PAGE_TURNS = 1_000;

/**
 * Rows on a page of the compare view's aligned calls (docs/adr/0020). Not `PAGE_TURNS`: these rows
 * have one fixed height and are never measured, so laying out 5,000 of them is cheap; the virtualizer
 * still lays out every row of its list (a million rows of two million-step rollouts were a 125 ms task).
 */
export const PAGE_ALIGNED_ROWS = 5_000;

/**
 * Past this many rows of the Steps view's model, a row takes its height from the ResizeObserver only
 * (docs/adr/0017, "Measuring rows"): reading `offsetHeight` as each mounts forced a layout, and each
 * measurement recomputed the page's rows' positions (10,000 steps: 65 ms). Counted in rows (turns plus
 * the task, end and grader rows), not steps + segments, so a bound of its own beside `HUGE_RECORD`.
 */
export const HUGE_ROWS = 5_000;

/**
 * Steps up to which the audit's pass runs at once, before the first paint (a few ms); a longer
 * rollout's runs in slices (a 1,000,000-step rollout held the page 50 ms and more in one task). Far
 * past `HUGE_RECORD`: the audit's pass does little a step, so it slices only where it would be felt.
 */
export const AUDIT_AT_ONCE_STEPS = 100_000;
/**
 * The same for steps parsed when read (docs/adr/0018): the pass parses them, about 1 µs a step, so
 * 100,000 of them would hold the page some 80 ms in one task.
 */
export const AUDIT_AT_ONCE_PARSED_STEPS = 20_000;
