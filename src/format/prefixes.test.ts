import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildRollout } from '../testing/builders';
import { isPlainValid } from './fastCheck';
import { prefixLength, rememberedPrefixes, sharedPrefixes } from './prefixes';

/** A record's segments: each context the previous one's input + generated ids, then cut or changed or not. */
const chains = fc
  .array(
    fc.record({
      generated: fc.array(fc.integer({ min: 0, max: 9 }), { maxLength: 4 }),
      keep: fc.option(fc.nat(12), { nil: undefined }),
      added: fc.array(fc.integer({ min: 0, max: 9 }), { maxLength: 3 }),
    }),
    { minLength: 1, maxLength: 6 },
  )
  .map((specs) => {
    let context: number[] = [1, 2];
    return specs.map(({ generated, keep, added }) => {
      const seg = { input_ids: context, generated_ids: generated, old_logprobs: generated.map(() => -0.5) };
      const full = [...context, ...generated];
      context = [...(keep === undefined ? full : full.slice(0, keep)), ...added];
      return seg;
    });
  });

describe('context prefixes found by the fast schema check', () => {
  it('are the ones counted afresh, for any chain of kept, cut and changed contexts (property, fixed seed)', () => {
    fc.assert(
      fc.property(chains, (segments) => {
        const record = buildRollout({ segments });
        expect(isPlainValid(record)).toBe(true);
        // The check remembered them for this array; a copy's are counted one id at a time.
        const fresh = structuredClone(segments).map((seg, i, all) => {
          const prev = all[i - 1];
          return prev ? prefixLength(seg.input_ids, prev.input_ids, prev.generated_ids) : 0;
        });
        expect(rememberedPrefixes(record.segments)).toEqual(fresh);
        expect(sharedPrefixes(record.segments)).toEqual(fresh);
      }),
      { seed: 20261202, numRuns: 300 },
    );
  });

  it('still check every id past the prefix: a non-integer there fails the fast check', () => {
    const segments = [
      { input_ids: [1, 2], generated_ids: [3], old_logprobs: [-0.1] },
      { input_ids: [1, 2, 3, 4.5], generated_ids: [5], old_logprobs: [-0.1] },
    ];
    expect(isPlainValid(buildRollout({ segments }))).toBe(false);
    segments[1] = { input_ids: [1, 2, 3, 4], generated_ids: [5], old_logprobs: [-0.1] };
    expect(isPlainValid(buildRollout({ segments }))).toBe(true);
  });
});
