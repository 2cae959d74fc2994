import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { distinctNames } from './sourceNames';

describe('distinctNames', () => {
  it('keeps names used once as they are', () => {
    expect(
      distinctNames([
        { name: 'a.jsonl', parents: ['x'] },
        { name: 'b.jsonl', parents: ['x'] },
      ]),
    ).toEqual(['a.jsonl', 'b.jsonl']);
  });

  it('lengthens shared names by their nearest folders until they differ', () => {
    const names = distinctNames([
      { name: 'output.jsonl', parents: ['real-data', 'openhands-v0-eval'] },
      { name: 'output.jsonl', parents: ['real-data', 'openhands-v1-sdk'] },
      { name: 'other.jsonl', parents: ['real-data'] },
    ]);
    expect(names).toEqual(['openhands-v0-eval/output.jsonl', 'openhands-v1-sdk/output.jsonl', 'other.jsonl']);
    expect(
      distinctNames([
        { name: 'output.jsonl', parents: ['a', 'eval'] },
        { name: 'output.jsonl', parents: ['b', 'eval'] },
      ]),
    ).toEqual(['a/eval/output.jsonl', 'b/eval/output.jsonl']);
  });

  it('numbers names still equal when the folders run out', () => {
    expect(
      distinctNames([
        { name: 'x', parents: [] },
        { name: 'x', parents: [] },
        { name: 'x', parents: [] },
      ]),
    ).toEqual(['x', 'x (2)', 'x (3)']);
  });

  it('always gives distinct names, in order, each ending with the name given', () => {
    const segment = fc.constantFrom('a', 'b', 'out.jsonl', 'c', 'a (2)');
    const source = fc.record({ name: segment, parents: fc.array(segment, { maxLength: 3 }) });
    fc.assert(
      fc.property(fc.array(source, { maxLength: 8 }), (sources) => {
        const names = distinctNames(sources);
        expect(new Set(names).size).toBe(sources.length);
        names.forEach((n, i) => {
          const given = sources[i]?.name ?? '?';
          const unnumbered = / \(\d+\)$/.test(n) ? n.replace(/ \(\d+\)$/, '') : n;
          expect(n.endsWith(given) || unnumbered.endsWith(given)).toBe(true);
        });
      }),
      { numRuns: 500 },
    );
  });
});
