import { describe, expect, it } from 'vitest';
import { buildRollout, buildSegment, buildStep } from '../testing/builders';
import { compactRollout, expandRollout } from './compact';
import { HUGE_RECORD, isHugeRecord } from './scale';

/** A record of `segments` generations and `steps` tool calls. */
function sized(segments: number, steps: number) {
  return buildRollout({
    segments: Array.from({ length: segments }, () => buildSegment({ input_ids: [1], generated_ids: [2], old_logprobs: [-0.1] })),
    steps: Array.from({ length: steps }, (_, i) => buildStep({ tool_call_id: `c-${i}` })),
  });
}

describe('isHugeRecord', () => {
  it('counts steps + segments: not huge at the threshold, huge one past it', () => {
    const half = HUGE_RECORD / 2;
    expect(isHugeRecord(sized(half, HUGE_RECORD - half))).toBe(false);
    expect(isHugeRecord(sized(half, HUGE_RECORD - half + 1))).toBe(true);
    expect(isHugeRecord(sized(half + 1, HUGE_RECORD - half))).toBe(true);
    // Either alone past it is huge too; a record without steps counts its segments.
    expect(isHugeRecord(sized(0, HUGE_RECORD + 1))).toBe(true);
    expect(isHugeRecord({ ...sized(HUGE_RECORD, 0), steps: undefined })).toBe(false);
    expect(isHugeRecord({ ...sized(HUGE_RECORD + 1, 0), steps: undefined })).toBe(true);
  });

  it('gives a compact record the verdict of the record it was made from, without expanding it', () => {
    for (const [segments, steps] of [
      [1, HUGE_RECORD - 1],
      [1, HUGE_RECORD],
      [3, HUGE_RECORD + 7],
    ] as const) {
      const record = sized(segments, steps);
      const compact = compactRollout(record);
      expect(isHugeRecord(compact)).toBe(isHugeRecord(record));
      expect(isHugeRecord(expandRollout(compact))).toBe(isHugeRecord(record));
    }
  });
});
