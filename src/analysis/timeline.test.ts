import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildRollout, buildSegment, buildStep } from '../testing/builders';
import { type Pass, runPass } from './passes';
import { firstFinishStep, joinTurns, type Turn, timestampMs, turnIndexPass } from './timeline';

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

  it('joins as the object-by-object rule did, on any record, and the index maps each step and segment to its turn', () => {
    // The rule as first written (one object per turn): the typed-array pass must give the same turns.
    const reference = (segments: (string | null)[], steps: string[]): Turn[] => {
      const byCall = new Map<string, number>();
      steps.forEach((s, i) => {
        if (!byCall.has(s)) byCall.set(s, i + 1);
      });
      const joined = new Set<number>();
      const joins = segments.map((c) => {
        const step = c !== null ? byCall.get(c) : undefined;
        if (step === undefined || joined.has(step)) return null;
        joined.add(step);
        return step;
      });
      const turns: Turn[] = [];
      let next = 1;
      const flush = (limit: number) => {
        for (; next < limit; next++) if (!joined.has(next)) turns.push({ segment: null, step: next });
      };
      joins.forEach((step, i) => {
        if (step !== null) flush(step);
        turns.push({ segment: i, step });
      });
      flush(steps.length + 1);
      return turns;
    };
    const call = fc.constantFrom('a', 'b', 'c', 'd', 'e');
    fc.assert(
      fc.property(fc.array(fc.option(call), { maxLength: 12 }), fc.array(call, { maxLength: 12 }), (segCalls, stepCalls) => {
        const r = buildRollout({ segments: segCalls.map((c) => seg(c)), steps: stepCalls.map((c) => step(c)) });
        expect(joinTurns(r)).toEqual(reference(segCalls, stepCalls));
        const index = runPass(turnIndexPass(r));
        for (let t = 0; t < index.length; t++) {
          const s = index.step[t] ?? 0;
          const g = index.segment[t] ?? -1;
          if (s > 0) expect(index.turnOfStep[s]).toBe(t);
          if (g >= 0) expect(index.turnOfSegment[g]).toBe(t);
        }
      }),
      { seed: 18, numRuns: 300 },
    );
  });

  it('yields along the way on a long rollout, so a page can run it in slices', () => {
    const steps = Array.from({ length: 20_000 }, (_, i) => step(`s${i}`));
    const pass: Pass<unknown> = turnIndexPass(buildRollout({ segments: [seg('s5')], steps }));
    let yields = 0;
    let last = 0;
    for (let r = pass.next(); !r.done; r = pass.next()) {
      yields++;
      expect(r.value).toBeGreaterThanOrEqual(last);
      last = r.value;
    }
    expect(yields).toBeGreaterThan(4);
    expect(last).toBeLessThanOrEqual(1);
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
