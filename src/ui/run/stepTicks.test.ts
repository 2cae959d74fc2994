import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MIN_TICK_GAP, type StepBin, stepTicks, TICK_CHAR_PX } from './stepTicks';

/** Points of `width` steps each from `from`, `count` of them (the run page's bins). */
const bins = (from: number, count: number, width = 1): StepBin[] =>
  Array.from({ length: count }, (_, i) => ({ step: from + i * width, stepTo: from + i * width + width - 1 }));

describe('stepTicks', () => {
  it('labels round steps between the first and the last', () => {
    // 1,000 steps summed 5 to a point, a chart of the run page's width: recharts' own pick was 0, 85, 190, 310, ...
    expect(stepTicks(bins(0, 200, 5), 310)).toEqual([0, 200, 400, 600, 800, 995]);
    expect(stepTicks(bins(0, 200, 5), 700)).toEqual([0, 100, 200, 300, 400, 500, 600, 700, 800, 900, 995]);
    expect(stepTicks(bins(0, 10), 300)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(stepTicks(bins(3, 45), 300)).toEqual([3, 10, 20, 30, 40, 47]);
  });

  it('gives way to the last step when a round one is too close to it', () => {
    expect(stepTicks(bins(0, 103), 300)).toEqual([0, 20, 40, 60, 80, 102]);
  });

  it('labels the point holding a round step when the run has gaps', () => {
    const gappy = [...bins(0, 10), ...bins(500, 10), ...bins(990, 10)];
    const ticks = stepTicks(gappy, 600);
    expect(ticks[0]).toBe(0);
    expect(ticks.at(-1)).toBe(999);
    expect(ticks).toContain(500);
  });

  it('labels one point, or only the first when two cannot fit', () => {
    expect(stepTicks([], 300)).toEqual([]);
    expect(stepTicks(bins(7, 1), 300)).toEqual([7]);
    expect(stepTicks(bins(123456, 2), 40)).toEqual([123456]);
  });

  it('labels only steps the chart has, in order, from the first, none colliding at the estimated widths', () => {
    const run = fc
      .tuple(fc.nat(5000), fc.array(fc.tuple(fc.integer({ min: 1, max: 50 }), fc.nat(30)), { minLength: 1, maxLength: 300 }))
      .map(([from, parts]) => {
        const rows: StepBin[] = [];
        let step = from;
        for (const [width, gapBefore] of parts) {
          step += gapBefore;
          rows.push({ step, stepTo: step + width - 1 });
          step += width;
        }
        return rows;
      });
    fc.assert(
      fc.property(run, fc.integer({ min: 20, max: 2000 }), (rows, plot) => {
        const ticks = stepTicks(rows, plot);
        const index = new Map(rows.map((r, i) => [r.step, i]));
        expect(ticks[0]).toBe(rows[0]?.step);
        const at = ticks.map((t) => index.get(t) ?? -1);
        expect(at.every((i) => i >= 0)).toBe(true);
        const band = plot / rows.length;
        const width = (t: number) => String(t).length * TICK_CHAR_PX;
        for (let k = 1; k < ticks.length; k++) {
          expect(at[k] ?? 0).toBeGreaterThan(at[k - 1] ?? 0);
          const apart = ((at[k] ?? 0) - (at[k - 1] ?? 0)) * band;
          expect(apart).toBeGreaterThanOrEqual((width(ticks[k] ?? 0) + width(ticks[k - 1] ?? 0)) / 2 + MIN_TICK_GAP);
        }
        // The last point is labelled whenever it fits beside the first.
        const last = rows.length - 1;
        if (rows.length > 1 && last * band >= (width(rows[0]?.step ?? 0) + width(rows[last]?.step ?? 0)) / 2 + MIN_TICK_GAP)
          expect(ticks.at(-1)).toBe(rows[last]?.step);
      }),
      { numRuns: 1000 },
    );
  });
});
