import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildRollout } from '../testing/builders';
import { mismatchDeltas, mismatchStats, poolMismatch } from './mismatch';

/* §10's invariants over random log-ratio samples (fast-check, a fixed seed so a failure replays). */
const d = fc.double({ min: -20, max: 20, noNaN: true, noDefaultInfinity: true });
const cap = fc.double({ min: 0.05, max: 50, noNaN: true, noDefaultInfinity: true });
const runs = { numRuns: 300, seed: 15 };

describe('mismatch statistics: invariants', () => {
  it('k3 >= 0, ratio mean >= exp(mean d) (Jensen), clip fraction in [0, 1], max |d| >= mean |d|, n = the count', () => {
    fc.assert(
      fc.property(fc.array(d, { minLength: 1, maxLength: 60 }), cap, (ds, c) => {
        const m = mismatchStats(ds, c);
        const meanD = ds.reduce((a, b) => a + b, 0) / ds.length;
        expect(m.n).toBe(ds.length);
        // r - 1 - d >= 0 for every d (e^d >= 1 + d); rounding can leave -1 ulp-sized values at d = 0.
        expect(m.kl_k3 as number).toBeGreaterThanOrEqual(-1e-12);
        expect(m.ratio_mean as number).toBeGreaterThanOrEqual(Math.exp(meanD) * (1 - 1e-12));
        expect(m.ratio_clip_frac as number).toBeGreaterThanOrEqual(0);
        expect(m.ratio_clip_frac as number).toBeLessThanOrEqual(1);
        expect(m.max_abs as number).toBeGreaterThanOrEqual((m.mean_abs as number) * (1 - 1e-12));
        expect(m.ratio_clip_frac).toBe(ds.filter((x) => Math.exp(x) > c).length / ds.length);
      }),
      runs,
    );
  });

  it('is unchanged when the positions are permuted, and a higher cap never clips more', () => {
    fc.assert(
      fc.property(
        fc
          .array(d, { minLength: 1, maxLength: 40 })
          .chain((ds) => fc.tuple(fc.constant(ds), fc.shuffledSubarray(ds, { minLength: ds.length }))),
        cap,
        ([ds, shuffled], c) => {
          const a = mismatchStats(ds, c);
          const b = mismatchStats(shuffled, c);
          expect(b.n).toBe(a.n);
          expect(b.max_abs).toBe(a.max_abs);
          expect(b.ratio_clip_frac).toBe(a.ratio_clip_frac);
          expect(b.mean_abs as number).toBeCloseTo(a.mean_abs as number, 9);
          expect(b.kl_k3 as number).toBeCloseTo(a.kl_k3 as number, 6);
          expect(mismatchStats(ds, c * 2).ratio_clip_frac as number).toBeLessThanOrEqual(a.ratio_clip_frac as number);
        },
      ),
      runs,
    );
  });

  it('pooling per-rollout statistics equals the statistics of all positions at once', () => {
    fc.assert(
      fc.property(fc.array(fc.array(d, { maxLength: 20 }), { minLength: 1, maxLength: 6 }), cap, (parts, c) => {
        const pooled = poolMismatch(parts.map((p) => mismatchStats(p, c)));
        const all = mismatchStats(parts.flat(), c);
        expect(pooled.rollouts).toBe(parts.length);
        expect(pooled.compared).toBe(parts.filter((p) => p.length > 0).length);
        expect(pooled.stats.n).toBe(all.n);
        if (all.n === 0) {
          expect(pooled.stats).toEqual(all);
          return;
        }
        expect(pooled.stats.max_abs).toBe(all.max_abs);
        expect(pooled.stats.mean_abs as number).toBeCloseTo(all.mean_abs as number, 9);
        expect(pooled.stats.ratio_clip_frac as number).toBeCloseTo(all.ratio_clip_frac as number, 12);
      }),
      runs,
    );
  });

  it('n is the count of comparable positions of a random record: masked, null, other-token and missing ones left out', () => {
    // One segment of 1..30 generated tokens after a 2-token prompt, each position randomly broken one way.
    const position = fc.record({
      kind: fc.constantFrom('ok', 'masked', 'null', 'other', 'missing'),
      old: fc.double({ min: -10, max: 0, noNaN: true }),
      trainer: fc.double({ min: -10, max: 0, noNaN: true }),
    });
    fc.assert(
      fc.property(fc.array(position, { minLength: 1, maxLength: 30 }), (ps) => {
        // A missing behaviour value can only be a tail (old_logprobs shorter than generated_ids).
        const firstMissing = ps.findIndex((p) => p.kind === 'missing');
        const cut = firstMissing < 0 ? ps.length : firstMissing;
        const gen = ps.map((_, j) => 100 + j);
        const record = buildRollout({
          segments: [{ input_ids: [1, 2], generated_ids: gen, old_logprobs: ps.slice(0, cut).map((p) => p.old), tool_call_id: null }],
          training: {
            sequence_ids: [1, 2, ...gen.map((id, j) => (ps[j]?.kind === 'other' ? id + 1000 : id))],
            loss_mask: [0, 0, ...ps.map((p) => (p.kind === 'masked' ? 0 : 1))],
            logprobs: [null, null, ...ps.map((p) => (p.kind === 'null' ? null : p.trainer))],
          },
        });
        const expected = ps.slice(0, cut).filter((p) => p.kind === 'ok' || p.kind === 'missing').length;
        expect(mismatchDeltas(record)).toHaveLength(expected);
      }),
      runs,
    );
  });
});
