import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Observed } from './observe';
import { logitOf, moveFeatures, PARAM_COUNT, PARAM_NAMES, paramsFromTable } from './params';
import { movesFor, REPERTOIRES } from './repertoire';
import { moveWeight, WEIGHTS_V1, WEIGHTS_V2 } from './weights';

const observed: fc.Arbitrary<Observed> = fc.record({
  readMain: fc.boolean(),
  applied: fc.record({ 'fix:0': fc.boolean(), 'fix:1': fc.boolean(), distractor: fc.boolean() }),
  editsSinceTest: fc.integer({ min: 0, max: 3 }),
  lastRun: fc.option(fc.record({ passed: fc.nat(3), failed: fc.nat(3), overBudget: fc.nat(3) }), { nil: null }),
  calls: fc.nat(10),
});

describe('policy parameters', () => {
  it('reproduce each hand-written table: exp(theta . phi) is the table weight of every move in every state', () => {
    for (const table of [WEIGHTS_V1, WEIGHTS_V2]) {
      const { theta } = paramsFromTable(table);
      expect(theta).toHaveLength(PARAM_COUNT);
      fc.assert(
        fc.property(observed, fc.constantFrom(...REPERTOIRES), (o, rep) => {
          for (const m of movesFor(rep)) {
            const w = moveWeight(m, o, table);
            expect(Math.exp(logitOf(moveFeatures(m, o), theta)) / w).toBeCloseTo(1, 12);
          }
        }),
      );
    }
  });

  it('switch on one or two situations per move, and every parameter is some move’s situation', () => {
    const used = new Set<number>();
    fc.assert(
      fc.property(observed, (o) => {
        for (const m of movesFor(REPERTOIRES[0] ?? { mainFile: '', testFile: '', edits: [] })) {
          const f = moveFeatures(m, o);
          expect(f.length === 1 || (f.length === 2 && m.key.startsWith('fix:'))).toBe(true);
          for (const i of f) used.add(i);
        }
      }),
      // A fixed seed: whether 300 random situations happen to reach every parameter is chance otherwise.
      { numRuns: 300, seed: 1 },
    );
    expect([...used].sort((a, b) => a - b)).toEqual(PARAM_NAMES.map((_, i) => i));
  });
});
