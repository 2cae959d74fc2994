import { describe, expect, it } from 'vitest';
import { buildRollout, buildSegment } from '../testing/builders';
import { contextChange } from './context';

const seg = (input_ids: number[], generated_ids: number[] = [9]) =>
  buildSegment({ input_ids, generated_ids, old_logprobs: generated_ids.map(() => -1) });

describe('contextChange', () => {
  it('the first segment: its whole context is new', () => {
    const r = buildRollout({ segments: [seg([1, 2, 3])] });
    expect(contextChange(r, 0)).toEqual({
      pieces: [{ kind: 'added', start: 0, end: 3 }],
      added: 3,
      dropped: 0,
      rewritten: false,
      approximate: false,
    });
  });

  it('an appended observation: previous input + generation kept, the rest added', () => {
    const r = buildRollout({ segments: [seg([1, 2], [3]), seg([1, 2, 3, 7, 8])] });
    expect(contextChange(r, 1)).toEqual({
      pieces: [
        { kind: 'kept', start: 0, end: 3 },
        { kind: 'added', start: 3, end: 5 },
      ],
      added: 2,
      dropped: 0,
      rewritten: false,
      approximate: false,
    });
  });

  it('compaction: an old observation dropped from the middle is shown where it was', () => {
    // previous: prompt 1 2 | call 3 | obs 40 41 42 | call 5 ; now obs replaced by 99, then new obs 60
    const r = buildRollout({ segments: [seg([1, 2, 3, 40, 41, 42], [5]), seg([1, 2, 3, 99, 5, 60])] });
    const c = contextChange(r, 1);
    expect(c.rewritten).toBe(true);
    expect(c.dropped).toBe(3);
    expect(c.added).toBe(2);
    expect(c.pieces).toEqual([
      { kind: 'kept', start: 0, end: 3 },
      { kind: 'dropped', start: 3, end: 6 },
      { kind: 'added', start: 3, end: 4 },
      { kind: 'kept', start: 4, end: 5 },
      { kind: 'added', start: 5, end: 6 },
    ]);
  });

  it('falls back to prefix + replacement when the change is too large to align', () => {
    const big = Array.from({ length: 9000 }, (_, i) => i + 1000);
    const r = buildRollout({ segments: [seg([1, ...big], [5]), seg([1, ...big.map((x) => -x)])] });
    const c = contextChange(r, 1);
    expect(c.approximate).toBe(true);
    expect(c.pieces).toEqual([
      { kind: 'kept', start: 0, end: 1 },
      { kind: 'dropped', start: 1, end: 9002 },
      { kind: 'added', start: 1, end: 9001 },
    ]);
  });
});
