import { describe, expect, it } from 'vitest';
import { markRegexes } from '../../analysis';
import { cutAtMarks, markRanges } from './marks';

describe('search marks', () => {
  it('marks the text and regex terms of a query, not its fields or negations', () => {
    const res = markRegexes('timeout tool:run_tests -flaky /exit \\d+/');
    expect(res.map((r) => r.source)).toEqual(['timeout', 'exit \\d+']);
    expect(markRegexes('"unclosed')).toEqual([]);
  });

  it('finds every match, merged where they overlap, and cuts a piece of the text at them', () => {
    const text = 'Timeout after 30 s; exit 124 (timeout)';
    const ranges = markRanges(text, markRegexes('timeout /exit \\d+/'));
    expect(ranges).toEqual([
      [0, 7],
      [20, 28],
      [30, 37],
    ]);
    // A token starting at 18 ("s; exit 124 (") is cut at the match that falls inside it.
    expect(cutAtMarks('s; exit 124 (', 17, ranges)).toEqual(['s; ', 'exit 124', ' (']);
    expect(cutAtMarks(text, 0, ranges).filter((_, i) => i % 2 === 1)).toEqual(['Timeout', 'exit 124', 'timeout']);
  });

  it('cuts a match that spans two pieces in each', () => {
    const ranges = markRanges('abcdef', [/cd/]);
    expect(cutAtMarks('abc', 0, ranges)).toEqual(['ab', 'c', '']);
    expect(cutAtMarks('def', 3, ranges)).toEqual(['', 'd', 'ef']);
  });
});
