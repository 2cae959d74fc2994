import type { StepItem, StepsModel } from './stepsModel';

/** First guesses of row heights in px; every row is measured once it renders. */
export const ESTIMATE: Record<StepItem['kind'], number> = { task: 110, turn: 240, end: 64, grader: 260 };

/**
 * Where a page opens, in px from its top: the selected row's guessed top (the sum of the guesses
 * above it), so that the first render draws that row's neighbours. Turning to a far page used to
 * draw the page's first rows, then scroll to the selected one and draw again: twice the rows made,
 * mounted and measured in one task.
 */
export function openingOffset(model: Pick<StepsModel, 'kindAt'>, from: number, local: number | null): number {
  let px = 0;
  for (let i = 0; i < (local ?? 0); i++) px += ESTIMATE[model.kindAt(from + i) ?? 'turn'];
  return px;
}
