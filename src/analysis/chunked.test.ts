import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CHUNKS_KEPT, chunkedArray, chunksOf, cursorOf, isChunked } from './chunked';

/** A chunked array over `items`, counting how often each chunk is parsed (a fresh copy each time). */
function counted<T>(items: T[], per: number, keep?: number) {
  const parses: number[] = [];
  const array = chunkedArray(
    items.length,
    per,
    (c) => {
      parses.push(c);
      return structuredClone(items.slice(c * per, (c + 1) * per));
    },
    keep,
  );
  return { array, parses };
}

const items = (n: number) => Array.from({ length: n }, (_, i) => ({ i, text: `item ${i}`, nested: { even: i % 2 === 0 } }));

describe('chunkedArray', () => {
  it('reads as the plain array does: indexing, length, iteration, array methods, JSON, equality', () => {
    const plain = items(23);
    const { array } = counted(plain, 5);
    expect(Array.isArray(array)).toBe(true);
    expect(isChunked(array)).toBe(true);
    expect(isChunked(plain)).toBe(false);
    expect(array.length).toBe(23);
    expect(array[0]).toEqual(plain[0]);
    expect(array[22]).toEqual(plain[22]);
    expect(array[23]).toBeUndefined();
    expect(array.at(-1)).toEqual(plain[22]);
    expect([...array]).toEqual(plain);
    expect(array.map((x) => x.i)).toEqual(plain.map((x) => x.i));
    expect(array.slice(4, 11)).toEqual(plain.slice(4, 11));
    expect(array.filter((x) => x.nested.even)).toEqual(plain.filter((x) => x.nested.even));
    expect(array.findIndex((x) => x.i === 17)).toBe(17);
    expect(Object.keys(array)).toEqual(Object.keys(plain));
    expect(4 in array).toBe(true);
    expect(23 in array).toBe(false);
    expect(JSON.stringify(array)).toBe(JSON.stringify(plain));
    expect(JSON.stringify({ steps: array }, null, 2)).toBe(JSON.stringify({ steps: plain }, null, 2));
    expect(array).toEqual(plain);
  });

  it('is read-only', () => {
    const { array } = counted(items(3), 2);
    const writable = array as unknown[];
    expect(() => {
      writable[0] = 1;
    }).toThrow(TypeError);
    expect(() => writable.push(1)).toThrow(TypeError);
    expect(array).toEqual(items(3));
  });

  it('parses only the chunk a read needs, keeps the last few, and gives equal items after one was dropped', () => {
    const plain = items(100);
    const { array, parses } = counted(plain, 10, 2);
    expect(parses).toEqual([]);
    const first = array[95];
    expect(parses).toEqual([9]);
    expect(array[91]).toBe(array[91]);
    expect(array[95]).toBe(first);
    expect(parses).toEqual([9]);
    array[5];
    array[15];
    // Two chunks kept: reading chunks 0 and 1 dropped chunk 9; its item comes back equal, but new.
    const again = array[95];
    expect(parses).toEqual([9, 0, 1, 9]);
    expect(again).toEqual(first);
    expect(again).not.toBe(first);
    expect(CHUNKS_KEPT).toBeGreaterThanOrEqual(2);
  });

  it('chunksOf gives every item once, in order, in runs; a chunked array’s chunks without pushing out what is kept', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 60 }), fc.integer({ min: 1, max: 9 }), (n, per) => {
        const plain = items(n);
        const { array, parses } = counted(plain, per, 2);
        array[0];
        const kept = parses.length;
        for (const a of [plain, array]) {
          const seen: unknown[] = [];
          for (const [from, run] of chunksOf(a, per)) {
            expect(from).toBe(seen.length);
            seen.push(...run);
          }
          expect(seen).toEqual(plain);
        }
        // The walk parsed each chunk but the one already kept, and kept none of them.
        expect(parses.length).toBe(kept + Math.max(0, Math.ceil(n / per) - kept));
        if (n > 0) {
          const before = parses.length;
          array[0];
          expect(parses.length).toBe(before);
        }
      }),
      { seed: 18, numRuns: 100 },
    );
  });

  it('cursorOf reads any index right, and a walk in order parses each chunk once and keeps none', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 60 }), fc.array(fc.nat(), { maxLength: 30 }), (n, picks) => {
        const plain = items(n);
        const { array, parses } = counted(plain, 7, 2);
        const inOrder = cursorOf(array);
        for (let i = 0; i < n; i++) expect(inOrder(i)).toEqual(plain[i]);
        expect(parses).toEqual(Array.from({ length: Math.ceil(n / 7) }, (_, c) => c));
        const anyOrder = cursorOf(array);
        for (const p of picks) expect(anyOrder(p % n)).toEqual(plain[p % n]);
        expect(cursorOf(plain)(n - 1)).toBe(plain[n - 1]);
      }),
      { seed: 18, numRuns: 100 },
    );
  });
});
