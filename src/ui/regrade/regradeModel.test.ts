import { describe, expect, it } from 'vitest';
import { advantageCell, changedSteps, errorsText, trendRows, verdictCell } from './regradeModel';

describe('the regrade page’s words', () => {
  it('lists errors largest first, and says none', () => {
    expect(errorsText(new Map())).toBe('none');
    expect(
      errorsText(
        new Map([
          ['timeout', 1],
          ['no_artifact', 29],
          ['crash', 1],
        ]),
      ),
    ).toBe('no_artifact 29, crash 1, timeout 1');
  });

  it('shows a verdict with its reward, and an advantage or why there is none', () => {
    expect(verdictCell('fail', 0)).toBe('fail · 0.0');
    expect(verdictCell(null, 0.25)).toBe('— · 0.25');
    expect(verdictCell('error', null)).toBe('error · null');
    expect(advantageCell(-0.93541)).toBe('-0.935');
    expect(advantageCell(null)).toBe('not counted');
  });

  it('charts the old and the new mean per step, and counts the steps that moved', () => {
    const trend = [
      { step: 0, oldMean: 0.5, newMean: 0.625, n: 8 },
      { step: 1, oldMean: 0.25, newMean: 0.25, n: 8 },
    ];
    expect(trendRows(trend)).toEqual([
      { step: 0, old: 0.5, new: 0.625 },
      { step: 1, old: 0.25, new: 0.25 },
    ]);
    expect(changedSteps(trend)).toBe(1);
  });
});
