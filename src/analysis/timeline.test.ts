import { describe, expect, it } from 'vitest';
import { buildRollout, buildSegment, buildStep } from '../testing/builders';
import { firstFinishStep, joinTurns, timestampMs } from './timeline';

const seg = (tool_call_id: string | null) => buildSegment({ tool_call_id });
const step = (tool_call_id: string, tool = 'read_file') => buildStep({ tool_call_id, tool });

describe('joinTurns', () => {
  it('joins segments and steps on tool_call_id in order', () => {
    const r = buildRollout({ segments: [seg('a'), seg('b'), seg(null)], steps: [step('a'), step('b')] });
    expect(joinTurns(r)).toEqual([
      { segment: 0, step: 1 },
      { segment: 1, step: 2 },
      { segment: 2, step: null },
    ]);
  });

  it('places a step without a segment by its number, and keeps a segment without a step', () => {
    const r = buildRollout({ segments: [seg('a'), seg('x'), seg('c')], steps: [step('a'), step('b'), step('c'), step('d')] });
    expect(joinTurns(r)).toEqual([
      { segment: 0, step: 1 },
      { segment: 1, step: null },
      { segment: null, step: 2 },
      { segment: 2, step: 3 },
      { segment: null, step: 4 },
    ]);
  });

  it('lists every step exactly once even when segments come out of step order', () => {
    const r = buildRollout({ segments: [seg('b'), seg('a')], steps: [step('a'), step('b'), step('b')] });
    const turns = joinTurns(r);
    expect(
      turns
        .map((t) => t.step)
        .filter((s) => s !== null)
        .sort(),
    ).toEqual([1, 2, 3]);
    expect(turns).toContainEqual({ segment: 0, step: 2 });
    expect(turns).toContainEqual({ segment: 1, step: 1 });
  });

  it('a record without steps: one turn per segment', () => {
    expect(joinTurns(buildRollout({ segments: [seg('a'), seg('b')] }))).toEqual([
      { segment: 0, step: null },
      { segment: 1, step: null },
    ]);
  });

  it('finds the first finish', () => {
    expect(firstFinishStep(buildRollout({ steps: [step('a'), step('b', 'finish'), step('c', 'finish')] }))).toBe(2);
    expect(firstFinishStep(buildRollout())).toBeNull();
  });
});

describe('timestampMs', () => {
  it('reads ISO 8601 and says null for what it cannot read', () => {
    expect(timestampMs('2026-09-22T08:00:01.500Z')).toBe(Date.UTC(2026, 8, 22, 8, 0, 1, 500));
    expect(timestampMs('yesterday')).toBeNull();
    expect(timestampMs('')).toBeNull();
    expect(timestampMs(undefined)).toBeNull();
  });
});
