import { describe, expect, it } from 'vitest';
import { pageCount, pageOfTurn, turnsOfPage } from './turnPages';

describe('turn pages', () => {
  it('cut turns into pages that cover each turn once', () => {
    expect(pageCount(0, 10)).toBe(1);
    expect(pageCount(10, 10)).toBe(1);
    expect(pageCount(11, 10)).toBe(2);
    const turns = 1_000_003;
    const per = 10_000;
    let next = 0;
    for (let p = 0; p < pageCount(turns, per); p++) {
      const { from, to } = turnsOfPage(p, turns, per);
      expect(from).toBe(next);
      expect(pageOfTurn(from, turns, per)).toBe(p);
      expect(pageOfTurn(to - 1, turns, per)).toBe(p);
      next = to;
    }
    expect(next).toBe(turns);
    expect(pageOfTurn(turns + 5, turns, per)).toBe(pageCount(turns, per) - 1);
    expect(pageOfTurn(-1, turns, per)).toBe(0);
  });
});
