import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildChain, buildRollout } from '../testing/builders';
import { isPlainValid } from './fastCheck';
import { JsonTooDeepError, MAX_JSON_DEPTH, nestsDeeperThan, parseJson, stableStringify } from './json';
import { parseLine } from './jsonl';

const PROPERTY = { seed: 18, numRuns: 60 };

/** The recursive definitions these functions replace, as the reference on shallow values. */
function depthOf(v: unknown): number {
  if (typeof v !== 'object' || v === null) return 0;
  const children = Array.isArray(v) ? v : Object.values(v);
  return 1 + Math.max(0, ...children.map(depthOf));
}
function recursiveStable(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(recursiveStable).join(',')}]`;
  if (v && typeof v === 'object') {
    const entries = Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, x]) => `${JSON.stringify(k)}:${recursiveStable(x)}`).join(',')}}`;
  }
  return JSON.stringify(v) ?? 'undefined';
}

/** A chain of objects and arrays `depth` deep, written as text (building it as a value would recurse in the test). */
const deepText = (kinds: boolean[], leaf = '1') => {
  let s = leaf;
  for (const arr of kinds) s = arr ? `[${s}]` : `{"k":${s}}`;
  return s;
};
const deepKinds = (min: number, max: number) => fc.array(fc.boolean(), { minLength: min, maxLength: max });

describe('bounded JSON (issue 18: no recursion on untrusted depth)', () => {
  it('measures depth like the recursive definition, and stringifies stably like it', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 6 }), fc.integer({ min: 0, max: 8 }), (v, limit) => {
        expect(nestsDeeperThan(v, limit)).toBe(depthOf(v) > limit);
        expect(stableStringify(v)).toBe(recursiveStable(v));
      }),
      PROPERTY,
    );
  });

  it('gives equal text for equal values whatever their key order', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.jsonValue({ maxDepth: 3 })), (o) => {
        const reversed = Object.fromEntries(Object.entries(o).reverse());
        expect(stableStringify(reversed)).toBe(stableStringify(o));
      }),
      PROPERTY,
    );
  });

  it('walks values thousands deep without overflowing, and parseJson refuses them past the limit', () => {
    fc.assert(
      fc.property(deepKinds(1, 6000), (kinds) => {
        const text = deepText(kinds, '"x"');
        const value = JSON.parse(text);
        expect(nestsDeeperThan(value, MAX_JSON_DEPTH)).toBe(kinds.length > MAX_JSON_DEPTH);
        // Every key is "k" (one per object), so sorted text is JSON.stringify's text.
        expect(stableStringify(value)).toBe(text);
        if (kinds.length > MAX_JSON_DEPTH) expect(() => parseJson(text)).toThrow(JsonTooDeepError);
        else expect(parseJson(text)).toEqual(value);
      }),
      { seed: 18, numRuns: 25 },
    );
  });

  it('a line nesting too deep in `sampling` is one E_PARSE naming the limit; a line within it loads', () => {
    const line = (depth: number) =>
      JSON.stringify(buildRollout({ rollout_id: 'deep' })).replace(
        /}$/,
        `,"sampling":{"temperature":1,"extra":${deepText(Array(depth).fill(false))}}}`,
      );
    for (const depth of [5000, 2000, MAX_JSON_DEPTH]) {
      const r = parseLine(line(depth), 7, 'f.jsonl');
      expect(r).toMatchObject({
        kind: 'error',
        value: { line: 7, code: 'E_PARSE', message: `nested deeper than ${MAX_JSON_DEPTH} levels (the limit for one value)` },
      });
    }
    expect(parseLine(line(MAX_JSON_DEPTH - 3), 7, 'f.jsonl')?.kind).toBe('rollout');
  });
});

describe('the depth bound of a record the fast check takes (docs/adr/0027)', () => {
  const chained = () => buildRollout({ rollout_id: 'deep', ...buildChain([{ tool: 'run' }, { tool: 'edit' }]) });
  // Where a chain may hang in a valid record: beside the token arrays the bounded walk skips, and elsewhere.
  const places: Array<(r: Record<string, unknown>, chain: unknown) => void> = [
    (r, c) => Object.assign(r, { extra: c }),
    (r, c) => Object.assign((r.segments as Record<string, unknown>[])[0] as object, { note: c }),
    (r, c) => Object.assign((r.segments as Record<string, unknown>[]).at(-1) as object, { note: c }),
    (r, c) => Object.assign(r, { training: { sequence_ids: [1, 2], loss_mask: [0, 1], update: { step: 1, note: c } } }),
    (r, c) => Object.assign(r, { training: { sequence_ids: [1, 2], loss_mask: [0, 1], note: c } }),
    (r, c) => Object.assign((r.steps as Record<string, unknown>[])[0] as object, { args: { a: c } }),
    (r, c) => Object.assign(r, { grading: { verdict: 'pass', details: c } }),
  ];

  it('refuses exactly the lines the whole walk refuses, wherever the chain hangs', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: places.length - 1 }),
        fc.integer({ min: MAX_JSON_DEPTH - 8, max: MAX_JSON_DEPTH + 2 }),
        (place, depth) => {
          const record = chained() as unknown as Record<string, unknown>;
          // A marker replaced by the chain as text: building the chain as a value would recurse in the test.
          places[place]?.(record, '@CHAIN@');
          const text = JSON.stringify(record).replace('"@CHAIN@"', deepText(Array(depth).fill(false)));
          const whole = nestsDeeperThan(JSON.parse(text), MAX_JSON_DEPTH);
          const r = parseLine(text, 3, 'f.jsonl');
          expect(r?.kind).toBe(whole ? 'error' : 'rollout');
          if (whole) expect(r?.value).toMatchObject({ code: 'E_PARSE', message: new JsonTooDeepError(MAX_JSON_DEPTH).message });
          // Both sides of the limit are reached, so the test checks the boundary and not one answer.
          return true;
        },
      ),
      { seed: 27, numRuns: 120 },
    );
  });

  it('reaches both verdicts at the boundary of each place', () => {
    for (const place of places) {
      const verdicts = [MAX_JSON_DEPTH - 6, MAX_JSON_DEPTH].map((depth) => {
        const record = chained() as unknown as Record<string, unknown>;
        place(record, '@CHAIN@');
        // The record the bounded walk is for: the fast check takes it (else the whole walk would be tested).
        expect(isPlainValid(JSON.parse(JSON.stringify(record)))).toBe(true);
        return parseLine(JSON.stringify(record).replace('"@CHAIN@"', deepText(Array(depth).fill(false))), 3, 'f.jsonl')?.kind;
      });
      expect(verdicts).toEqual(['rollout', 'error']);
    }
  });
});
