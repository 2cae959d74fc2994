import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildRollout } from '../testing/builders';
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
