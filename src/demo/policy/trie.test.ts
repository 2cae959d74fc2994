import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { mulberry32 } from './rng';
import { buildTrie, childDistribution, scorePath, walk } from './trie';

const OFF = { topK: -1, topP: 1 };
const seqs = [
  [1, 2, 3, 9],
  [1, 2, 4, 9],
  [1, 5, 9],
  [6, 9],
];

describe('constrained trie sampling', () => {
  it('gives each candidate its share of the mass, and its token log-probs sum to that', () => {
    fc.assert(
      fc.property(fc.array(fc.double({ min: 0.001, max: 50, noNaN: true }), { minLength: 4, maxLength: 4 }), (masses) => {
        const trie = buildTrie(seqs, masses);
        const total = masses.reduce((a, b) => a + b, 0);
        seqs.forEach((s, i) => {
          const lps = scorePath(trie, OFF, s);
          expect(lps).not.toBeNull();
          const sum = (lps ?? []).reduce((a, b) => a + b, 0);
          expect(sum).toBeCloseTo(Math.log((masses[i] ?? 0) / total), 10);
        });
      }),
    );
  });

  it('samples candidates at their frequencies', () => {
    const masses = [1, 2, 3, 4];
    const trie = buildTrie(seqs, masses);
    const rng = mulberry32(42);
    const counts = [0, 0, 0, 0];
    const n = 20_000;
    for (let i = 0; i < n; i++) {
      const w = walk(trie, OFF, rng);
      counts[w.leaf] = (counts[w.leaf] ?? 0) + 1;
      expect(w.ids).toEqual(seqs[w.leaf]);
    }
    counts.forEach((c, i) => {
      expect(c / n).toBeCloseTo((masses[i] ?? 0) / 10, 1);
    });
  });

  it('scores a forced path with the same numbers sampling would record', () => {
    const trie = buildTrie(seqs, [1, 2, 3, 4]);
    const forced = walk(trie, OFF, mulberry32(1), seqs[1]);
    expect(forced.ids).toEqual(seqs[1]);
    expect(forced.logprobs).toEqual(scorePath(trie, OFF, seqs[1] ?? []));
    expect(scorePath(trie, OFF, [1, 7])).toBeNull();
  });

  it('drops candidates with no mass and applies top-k and top-p per node', () => {
    const trie = buildTrie(seqs, [1, 2, 0, 4]);
    expect(scorePath(trie, OFF, seqs[2] ?? [])).toBeNull();
    expect(childDistribution(trie, { topK: 1, topP: 1 }).map((d) => [d.id, d.p])).toEqual([[6, 1]]);
    // Root masses: token 1 -> 3, token 6 -> 4; top-p 0.5 keeps only the larger.
    expect(childDistribution(trie, { topK: -1, topP: 0.5 }).map((d) => d.id)).toEqual([6]);
  });
});
