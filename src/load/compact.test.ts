import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { CHUNKS_KEPT, chunksOf, isChunked } from '../analysis';
import { parseLine, type Rollout, type Step } from '../format';
import { buildRollout, buildSegment, buildStep } from '../testing/builders';
import { compactBytes, compactRollout, expandPass, expandRollout, LAZY_STEPS, packCompact, transferables } from './compact';

/** What expansion gives back for training log-probs: float32, printed to 7 significant digits. */
function asStored(r: Rollout): Rollout {
  if (!r.training?.logprobs) return r;
  const logprobs = r.training.logprobs.map((x) => (x === null ? null : Number(Math.fround(x).toPrecision(7))));
  return { ...r, training: { ...r.training, logprobs } };
}

const demo = readFileSync(new URL('../../public/demo/rollouts.jsonl', import.meta.url), 'utf8')
  .split('\n')
  .flatMap((line, i) => {
    const r = parseLine(line, i + 1, 'demo');
    return r?.kind === 'rollout' ? [r.value.record] : [];
  });

describe('packCompact', () => {
  it('moves many records into one buffer, aligned, and every record still expands exactly', () => {
    const big = buildRollout({
      rollout_id: 'wide',
      // An id past 32 bits keeps its array in float64: packing must keep such arrays exact and aligned.
      segments: [buildSegment({ input_ids: [1, 2 ** 40, 3], generated_ids: [4], old_logprobs: [-0.5], loss_mask: [1] })],
    });
    const records = [...demo.slice(0, 12), big];
    const compact = records.map(compactRollout);
    const before = compact.map(expandRollout);
    packCompact(compact);
    expect(transferables(...compact)).toHaveLength(1);
    expect(compact.map(expandRollout)).toEqual(before);
    // Each record starts on an 8-byte boundary, so its float64 and int32 views stay aligned.
    for (const c of compact) expect(c.bytes.byteOffset % 8).toBe(0);
  });
});

describe('compactRollout / expandRollout', () => {
  it('gives back every demo record exactly (training log-probs to float32 precision)', () => {
    expect(demo.length).toBeGreaterThan(10);
    for (const r of demo) expect(expandRollout(compactRollout(r))).toEqual(asStored(r));
  });

  it('keeps one copy of each shared context prefix: the demo compacts to well under its id count', () => {
    let ids = 0;
    let bytes = 0;
    for (const r of demo) {
      for (const s of r.segments) ids += s.input_ids.length + s.generated_ids.length;
      const { training: _t, ...segmentsOnly } = r;
      bytes += compactBytes(compactRollout(segmentsOnly));
    }
    // 4 bytes per id if nothing were shared; sharing prefixes leaves a fraction of that.
    expect(bytes).toBeLessThan(ids * 4 * 0.4);
  });

  it('a rewritten (compacted) context shares only what it kept, and still expands exactly', () => {
    const r = buildRollout({
      segments: [
        buildSegment({ input_ids: [1, 2, 3], generated_ids: [4], old_logprobs: [-1] }),
        buildSegment({
          input_ids: [1, 2, 9, 4, 5],
          generated_ids: [6, 7],
          old_logprobs: [-0.1, -0.2],
          input_tokens: ['a', 'b', 'x', 'd', 'e'],
        }),
      ],
    });
    const c = compactRollout(r);
    // Only what was not shared is stored: 3 + 1 ids, then 3 (9, 4, 5) + 2, and the log-probs (float64).
    expect(compactBytes(c)).toBe((3 + 1 + 3 + 2) * 4 + 3 * 8);
    expect(expandRollout(c)).toEqual(r);
  });

  it('round-trips arbitrary records, unknown fields included', () => {
    const ids = fc.array(fc.integer({ min: 0, max: 200_000 }), { maxLength: 30 });
    const segment = fc.record({
      input_ids: ids,
      generated_ids: ids,
      extra: fc.option(fc.string(), { nil: undefined }),
    });
    fc.assert(
      fc.property(fc.array(segment, { maxLength: 5 }), fc.boolean(), (segs, growing) => {
        let prev: number[] = [];
        const segments = segs.map((s) => {
          const input_ids = growing ? [...prev, ...s.input_ids] : s.input_ids;
          prev = [...input_ids, ...s.generated_ids];
          return buildSegment({
            input_ids,
            generated_ids: s.generated_ids,
            old_logprobs: s.generated_ids.map((_, i) => -i / 7),
            ...(s.extra === undefined ? {} : { extra: s.extra }),
          });
        });
        const r = buildRollout({ segments, custom: { nested: [1, 'two'] } });
        expect(expandRollout(compactRollout(r))).toEqual(r);
      }),
    );
  });

  it('keeps a rollout in one buffer, listed once for transfer, its policy and training step readable without expanding', () => {
    const r = demo[0] ?? buildRollout();
    const c = compactRollout(r);
    expect(transferables(c)).toEqual([c.bytes.buffer]);
    expect(c.policy).toBe(r.policy_version);
    expect(c.trainingStep).toBeNull();
    expect(compactRollout({ ...r, training_step: 12 }).trainingStep).toBe(12);
    expect(compactRollout({ ...r, training_step: -1 }).trainingStep).toBeNull();
    // What crosses threads besides the buffer is six plain fields.
    expect(Object.keys(c).sort()).toEqual(['bytes', 'chunksAt', 'layoutAt', 'policy', 'size', 'trainingStep']);
  });

  it('expands a long rollout chunk by chunk, yielding along the way, to the same record with its keys in order', () => {
    const steps = Array.from({ length: 5000 }, (_, i) => ({
      tool_call_id: `s-${i}`,
      tool: 'run_tests',
      args: { k: i },
      observation: { status: 'ok' as const, text: `${i}` },
    }));
    const segments = Array.from({ length: 600 }, (_, i) =>
      buildSegment({ input_ids: [1, 2, i], generated_ids: [i], old_logprobs: [-0.5], tool_call_id: `s-${i}` }),
    );
    const r = buildRollout({ segments, steps });
    const c = compactRollout(r);
    expect(c.size).toBe(5600);
    const pass = expandPass(c);
    let yields = 0;
    let step = pass.next();
    for (; !step.done; step = pass.next()) yields++;
    // Three chunks of segment layouts and three of steps, at least.
    expect(yields).toBeGreaterThanOrEqual(6);
    expect(step.value).toEqual(r);
    expect(Object.keys(step.value)).toEqual(Object.keys(expandRollout(compactRollout(buildRollout({ steps: [] })))));
  });

  it('keeps ids that do not fit 32 bits exact', () => {
    const r = buildRollout({ segments: [buildSegment({ input_ids: [1, 2 ** 40] })] });
    expect(expandRollout(compactRollout(r))).toEqual(r);
  });
});

/** Steps per chunk of the compact record (compact.ts). */
const PER = 2048;

const longSteps = (n: number): Step[] =>
  Array.from({ length: n }, (_, i) =>
    buildStep({
      tool_call_id: `s-${i}`,
      tool: i % 5 === 0 ? 'run_tests' : 'edit',
      args: { k: i },
      observation: { status: 'ok', text: `${i}` },
    }),
  );

describe('a huge record’s steps, parsed when read (docs/adr/0018)', () => {
  const stepArb: fc.Arbitrary<Step> = fc.record(
    {
      tool_call_id: fc.string({ maxLength: 6 }),
      tool: fc.constantFrom('finish', 'run_tests', 'edit', 'read_file', '__proto__'),
      args: fc.dictionary(fc.string({ maxLength: 4 }), fc.oneof(fc.integer(), fc.string({ maxLength: 8 }), fc.constant(null))),
      observation: fc.record({ status: fc.constantFrom('ok' as const, 'error' as const), text: fc.string({ maxLength: 12 }) }),
      process_reward: fc.double({ min: -1, max: 1, noNaN: true, noDefaultInfinity: true }),
      extra: fc.array(fc.oneof(fc.integer(), fc.boolean()), { maxLength: 3 }),
    },
    { requiredKeys: ['tool_call_id', 'tool'] },
  );

  it('equal the eager ones, step by step, run by run and as JSON, for random records over the threshold', () => {
    fc.assert(
      fc.property(
        fc.array(stepArb, { minLength: 1, maxLength: 40 }),
        fc.integer({ min: LAZY_STEPS + 1, max: LAZY_STEPS + 2 * PER + 100 }),
        (shapes, n) => {
          // Random steps, repeated to a length over the threshold, each its own object.
          const steps = Array.from({ length: n }, (_, i) => ({ ...(shapes[i % shapes.length] as Step), tool_call_id: `${i}` }));
          const c = compactRollout(buildRollout({ steps, custom: { after: 'steps' } }));
          const lazy = expandRollout(c);
          const eager = expandRollout(c, Number.POSITIVE_INFINITY);
          const got = lazy.steps ?? [];
          expect(isChunked(got)).toBe(true);
          expect(isChunked(eager.steps ?? [])).toBe(false);
          expect(got.length).toBe(n);
          for (let i = 0; i < n; i++) expect(got[i]).toEqual(steps[i]);
          let at = 0;
          for (const [from, run] of chunksOf(got)) {
            expect(from).toBe(at);
            expect(run).toEqual(steps.slice(from, from + run.length));
            at += run.length;
          }
          expect(at).toBe(n);
          expect(JSON.stringify(lazy)).toBe(JSON.stringify(eager));
          expect(Object.keys(lazy)).toEqual(Object.keys(eager));
        },
      ),
      { seed: 18, numRuns: 8 },
    );
  });

  it('parse one chunk to read one step, where the eager record parsed them all', () => {
    const r = buildRollout({ steps: longSteps(5 * PER + 7) });
    const c = compactRollout(r);
    const parse = vi.spyOn(JSON, 'parse');
    try {
      const lazy = expandRollout(c);
      const expanding = parse.mock.calls.length;
      // The layout and the one chunk of segment layouts; no step yet.
      expect(expanding).toBe(2);
      expect(lazy.steps?.[3 * PER + 1]).toEqual(r.steps?.[3 * PER + 1]);
      expect(parse.mock.calls.length - expanding).toBe(1);
      // Reading in the chunk read last parses nothing more.
      expect(lazy.steps?.[3 * PER + 2]).toEqual(r.steps?.[3 * PER + 2]);
      expect(parse.mock.calls.length - expanding).toBe(1);
    } finally {
      parse.mockRestore();
    }
  });

  it('after their chunk was dropped from the cache, give back equal steps', () => {
    const r = buildRollout({ steps: longSteps((CHUNKS_KEPT + 2) * PER) });
    const steps = expandRollout(compactRollout(r)).steps ?? [];
    const first = steps[10];
    for (let c = 1; c <= CHUNKS_KEPT; c++) steps[c * PER];
    const again = steps[10];
    expect(again).not.toBe(first);
    expect(again).toEqual(first);
    expect(again).toEqual(r.steps?.[10]);
  });

  it('round-trip: compacted again and as JSON, the same as the eager record', () => {
    const r = buildRollout({ steps: longSteps(LAZY_STEPS + PER) });
    const c = compactRollout(r);
    const lazy = expandRollout(c);
    const eager = expandRollout(c, Number.POSITIVE_INFINITY);
    expect(lazy).toEqual(r);
    expect(JSON.stringify(lazy, null, 2)).toBe(JSON.stringify(eager, null, 2));
    // A lazily read record compacts again to one that expands to the same record, byte for byte.
    const again = compactRollout(lazy);
    expect(Buffer.from(again.bytes).equals(Buffer.from(c.bytes))).toBe(true);
    expect(JSON.stringify(expandRollout(again))).toBe(JSON.stringify(eager));
    // The page never structured-clones a record (it stays in the page; only compact buffers cross threads):
    // a Proxy cannot be cloned, so that would fail loudly, not lose steps.
    expect(() => structuredClone(lazy)).toThrow();
  });

  it('stay one plain array up to the threshold, as before', () => {
    const r = buildRollout({ steps: longSteps(LAZY_STEPS) });
    const steps = expandRollout(compactRollout(r)).steps ?? [];
    expect(isChunked(steps)).toBe(false);
    expect(steps).toEqual(r.steps);
    expect(structuredClone(steps)).toEqual(r.steps);
  });
});
