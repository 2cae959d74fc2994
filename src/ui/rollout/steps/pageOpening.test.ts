import { describe, expect, it } from 'vitest';
import { ESTIMATE, openingOffset } from './pageOpening';
import type { StepItem } from './stepsModel';

/** Rows as the model orders them: the task, `turns` turns, the end and the grader. */
function rows(turns: number) {
  const count = turns + 3;
  const kindAt = (row: number): StepItem['kind'] | undefined =>
    row < 0 || row >= count ? undefined : row === 0 ? 'task' : row === count - 2 ? 'end' : row === count - 1 ? 'grader' : 'turn';
  return { kindAt };
}

describe('openingOffset', () => {
  it('puts a page at the guessed top of its selected row: the sum of the guesses above it on that page', () => {
    const model = rows(20_000);
    expect(openingOffset(model, 0, 3)).toBe(ESTIMATE.task + 2 * ESTIMATE.turn);
    // Page 19 of 1,000 turns starts at row 18,001; step 18,500 is its row 499.
    expect(openingOffset(model, 18_001, 499)).toBe(499 * ESTIMATE.turn);
    // The last page's end and grader rows count with their own guesses.
    expect(openingOffset(model, 19_001, 1_001)).toBe(1_000 * ESTIMATE.turn + ESTIMATE.end);
  });

  it('opens a page with no selected row at its top', () => {
    expect(openingOffset(rows(5), 1, null)).toBe(0);
    expect(openingOffset(rows(5), 0, 0)).toBe(0);
  });
});
