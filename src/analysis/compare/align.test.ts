import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { chunkedArray } from '../chunked';
import { type Alignment, alignCalls, alignCallsPass, type Call } from './align';

const call = (tool: string, x?: number): Call => (x === undefined ? { tool } : { tool, args: { x } });
const callArb = fc.record({
  tool: fc.constantFrom('read', 'edit', 'test'),
  args: fc.option(fc.record({ x: fc.integer({ min: 0, max: 2 }) }), { nil: undefined }),
});
const seqArb = fc.array(callArb, { maxLength: 7 });

/** The cheapest alignment by trying every one (exponential: small inputs only). */
function bruteForce(a: readonly Call[], b: readonly Call[]): number {
  const key = (c: Call) => JSON.stringify([c.tool, c.args ?? {}]);
  const memo = new Map<string, number>();
  const f = (i: number, j: number): number => {
    if (i === a.length) return b.length - j;
    if (j === b.length) return a.length - i;
    const k = `${i},${j}`;
    const hit = memo.get(k);
    if (hit !== undefined) return hit;
    const ca = a[i] as Call;
    const cb = b[j] as Call;
    let best = 1 + Math.min(f(i + 1, j), f(i, j + 1));
    if (key(ca) === key(cb)) best = Math.min(best, f(i + 1, j + 1));
    else if (ca.tool === cb.tool) best = Math.min(best, 1 + f(i + 1, j + 1));
    memo.set(k, best);
    return best;
  };
  return f(0, 0);
}

function sides(al: Alignment) {
  return { a: al.rows.flatMap((r) => (r.a === null ? [] : [r.a])), b: al.rows.flatMap((r) => (r.b === null ? [] : [r.b])) };
}

describe('alignCalls', () => {
  it('puts shared steps on one row, an edited call beside its counterpart, and marks the first divergence', () => {
    const al = alignCalls(
      [call('read', 1), call('edit', 1), call('test'), call('finish')],
      [call('read', 1), call('edit', 2), call('finish')],
    );
    expect(al.rows).toEqual([
      { kind: 'same', a: 0, b: 0 },
      { kind: 'changed', a: 1, b: 1 },
      { kind: 'only-a', a: 2, b: null },
      { kind: 'same', a: 3, b: 2 },
    ]);
    expect(al.firstDivergence).toBe(1);
    expect(al.cost).toBe(2);
  });

  it('reads arguments by value, not key order', () => {
    expect(alignCalls([{ tool: 't', args: { a: 1, b: 2 } }], [{ tool: 't', args: { b: 2, a: 1 } }]).rows[0]?.kind).toBe('same');
  });

  it('every step appears exactly once, in order, on each side', () => {
    fc.assert(
      fc.property(seqArb, seqArb, (a, b) => {
        const s = sides(alignCalls(a, b));
        expect(s.a).toEqual(a.map((_, i) => i));
        expect(s.b).toEqual(b.map((_, i) => i));
      }),
    );
  });

  it('identical sequences align all matched, at no cost', () => {
    fc.assert(
      fc.property(seqArb, (a) => {
        const al = alignCalls(
          a,
          a.map((c) => ({ ...c })),
        );
        expect(al.rows.every((r) => r.kind === 'same')).toBe(true);
        expect(al.cost).toBe(0);
        expect(al.firstDivergence).toBe(-1);
      }),
    );
  });

  it('the cost is minimal (brute force) and rows keep the rules', () => {
    fc.assert(
      fc.property(seqArb, seqArb, (a, b) => {
        const al = alignCalls(a, b);
        expect(al.cost).toBe(bruteForce(a, b));
        for (const r of al.rows) {
          if (r.kind === 'same' || r.kind === 'changed') expect(a[r.a]?.tool).toBe(b[r.b]?.tool);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('very long sequences fall back to a linear-space diff with the same invariants', () => {
    const a = Array.from({ length: 2500 }, (_, i) => call(i % 3 === 0 ? 'edit' : 'read', i % 5));
    const b = [...a.slice(0, 1000), call('test'), ...a.slice(1000)];
    const al = alignCalls(a, b);
    expect(al.rows.filter((r) => r.kind !== 'same')).toEqual([{ kind: 'only-b', a: null, b: 1000 }]);
    expect(sides(al).a).toHaveLength(2500);
  });

  it('aligns two 300,000-step rollouts in slices, trimming their shared ends, reading their steps a chunk at a time', () => {
    const n = 300_000;
    const parsed: number[] = [];
    const steps = (changedAt: number) =>
      chunkedArray(n, 2048, (c) => {
        parsed.push(c);
        return Array.from({ length: Math.min(2048, n - c * 2048) }, (_, k) => {
          const i = c * 2048 + k;
          return call(i % 3 === 0 ? 'edit' : 'read', i === changedAt ? 99 : i % 5);
        });
      });
    const pass = alignCallsPass(steps(-1), steps(150_000));
    let yields = 0;
    let r = pass.next();
    for (; !r.done; r = pass.next()) yields++;
    const al = r.value;
    // Every chunk of both sides read once (the shared ends are trimmed on the keys, not the steps).
    expect(parsed).toHaveLength(2 * Math.ceil(n / 2048));
    expect(yields).toBeGreaterThan(2 * Math.ceil(n / 2048) - 1);
    expect(al.rows).toHaveLength(n);
    expect(al.rows[150_000]).toEqual({ kind: 'changed', a: 150_000, b: 150_000 });
    expect(al.firstDivergence).toBe(150_000);
    expect([al.cost, al.same, al.gaveUp]).toEqual([1, n - 1, false]);
  });

  it('gives up, and says so, where two long middles differ by more than it can align cheaply', () => {
    const a = Array.from({ length: 4100 }, (_, i) => call('read', i));
    const b = [a[0] as Call, ...Array.from({ length: 4100 }, (_, i) => call('edit', i)), a[4099] as Call];
    const al = alignCalls(a, b);
    expect(al.gaveUp).toBe(true);
    expect(sides(al).a).toEqual(a.map((_, i) => i));
    expect(sides(al).b).toEqual(b.map((_, i) => i));
    expect(al.rows[0]).toEqual({ kind: 'same', a: 0, b: 0 });
    expect(al.rows[al.rows.length - 1]).toEqual({ kind: 'same', a: 4099, b: 4101 });
    expect(al.cost).toBe(4098 + 4100);
    // Below that size (a table of 2,100 x 2,100 calls) the same kind of input is aligned exactly.
    const smaller = alignCalls(a.slice(0, 2100), [a[0] as Call, ...b.slice(1, 2100), a[2099] as Call]);
    expect(smaller.gaveUp).toBe(false);
    expect(smaller.cost).toBe(2098 + 2099);
  });

  it('past the table, a middle with few edits is aligned by the linear-space diff', () => {
    const a = Array.from({ length: 4100 }, (_, i) => call('read', i));
    const b = [a[0] as Call, call('test'), ...a.slice(1, 4099), call('test'), a[4099] as Call];
    const al = alignCalls(a, b);
    expect(al.gaveUp).toBe(false);
    expect(al.rows.filter((r) => r.kind !== 'same')).toEqual([
      { kind: 'only-b', a: null, b: 1 },
      { kind: 'only-b', a: null, b: 4100 },
    ]);
    expect(sides(al).a).toEqual(a.map((_, i) => i));
  });
});
