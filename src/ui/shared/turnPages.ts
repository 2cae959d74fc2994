/*
 * A huge rollout's view in pages of turns (issue 18): a page's rows are few enough for the virtualizer
 * to lay out at once and for one element to hold (Chromium caps an element near 33 M px; a million
 * rows of 240 px would be 240 M). A rollout of one page is shown as before, whole.
 */

/** The pages a list of `turns` turns makes, `per` a page (at least one page). */
export function pageCount(turns: number, per: number): number {
  return Math.max(1, Math.ceil(turns / per));
}

/** The page a turn is on. */
export function pageOfTurn(turn: number, turns: number, per: number): number {
  return Math.min(pageCount(turns, per) - 1, Math.max(0, Math.floor(turn / per)));
}

/** The turns of a page, [from, to). */
export function turnsOfPage(page: number, turns: number, per: number): { from: number; to: number } {
  return { from: Math.min(turns, page * per), to: Math.min(turns, (page + 1) * per) };
}
