import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isChunked } from './chunked';
import { groupFindings, hasFindingCode, severityCounts } from './findingGroups';
import { findingPlaces, findingsWithCodes, packedBuffers, packFindings, unpackFindings } from './packedFindings';
import type { Finding, FindingCode } from './types';

const CODES: FindingCode[] = ['W_ORPHAN_CALL', 'E_DUPLICATE_ROLLOUT', 'W_LOGPROB_DRIFT', 'E_TRAINING_MASK'];

const findingArb: fc.Arbitrary<Finding> = fc.record({
  code: fc.constantFrom(...CODES),
  severity: fc.constantFrom('error' as const, 'warning' as const),
  segment: fc.option(fc.integer({ min: 0, max: 0x7fffffff }), { nil: null }),
  step: fc.option(fc.integer({ min: 0, max: 0x7fffffff }), { nil: null }),
  // Any text a message may quote: astral characters, line separators, a lone surrogate, quotes, NUL.
  message: fc.oneof(fc.string({ unit: 'binary', maxLength: 40 }), fc.constantFrom('', '\ud800', 'a\udfffb', '"\\\u2028\u0000', '😀 done')),
});

/** What the page receives: a structured clone with the packed buffers transferred. */
function sent(findings: readonly Finding[]) {
  const p = packFindings(findings);
  if (!p) throw new Error('did not pack');
  return structuredClone(p, { transfer: packedBuffers(p) });
}

describe('packFindings / unpackFindings', () => {
  it('gives back every finding, equal and in order, after a transferred clone', () => {
    fc.assert(
      fc.property(fc.array(findingArb, { maxLength: 3000 }), (findings) => {
        const back = unpackFindings(sent(findings));
        expect(isChunked(back)).toBe(true);
        expect(back.length).toBe(findings.length);
        expect([...back]).toEqual(findings);
        // Read out of order too: the last item, then the first (chunks are made as read).
        if (findings.length > 0) {
          expect(back[findings.length - 1]).toEqual(findings[findings.length - 1]);
          expect(back[0]).toEqual(findings[0]);
        }
      }),
      { seed: 19, numRuns: 40 },
    );
  });

  it('knows the groups, counts, places and codes without a pass over the items', () => {
    fc.assert(
      fc.property(fc.array(findingArb, { maxLength: 3000 }), fc.constantFrom(...CODES), (findings, code) => {
        const back = unpackFindings(sent(findings));
        expect(groupFindings(back)).toEqual(groupFindings(findings));
        expect(severityCounts(back)).toEqual(severityCounts(findings));
        expect(hasFindingCode(back, code)).toBe(findings.some((f) => f.code === code));
        expect(findingsWithCodes(back, [code])).toEqual(findings.filter((f) => f.code === code));
        const places = findingPlaces(back);
        expect(places && [...places.step]).toEqual(findings.map((f) => f.step ?? -1));
        expect(places && [...places.segment]).toEqual(findings.map((f) => f.segment ?? -1));
      }),
      { seed: 19, numRuns: 30 },
    );
  });

  it('leaves as objects findings whose place a column cannot hold', () => {
    const f = (step: number | null): Finding => ({ code: 'W_ORPHAN_CALL', severity: 'warning', segment: null, step, message: 'm' });
    expect(packFindings([f(1), f(2)])).not.toBeNull();
    expect(packFindings([f(1), f(1.5)])).toBeNull();
    expect(packFindings([f(-2)])).toBeNull();
    expect(packFindings([f(2 ** 31)])).toBeNull();
  });

  it('a plain array has no columns, and its code search reads its items', () => {
    const plain: Finding[] = [{ code: 'W_LOGPROB_DRIFT', severity: 'warning', segment: 0, step: null, message: 'drift' }];
    expect(findingPlaces(plain)).toBeUndefined();
    expect(findingsWithCodes(plain, ['W_LOGPROB_DRIFT'])).toEqual(plain);
  });

  it('holds two million findings in columns of a few tens of bytes each', () => {
    const n = 2_000_000;
    const findings = Array.from(
      { length: n },
      (_, i): Finding => ({
        code: i % 2 ? 'W_ORPHAN_CALL' : 'W_LOGPROB_DRIFT',
        severity: 'warning',
        segment: null,
        step: i >> 1,
        message: `step ${i >> 1} has no generation`,
      }),
    );
    const p = packFindings(findings);
    if (!p) throw new Error('did not pack');
    const bytes = packedBuffers(p).reduce((s, b) => s + b.byteLength, 0);
    expect(bytes / n).toBeLessThan(45);
    const back = unpackFindings(p);
    expect(back[1_999_999]).toEqual(findings[1_999_999]);
    expect(groupFindings(back).map((g) => [g.code, g.count])).toEqual([
      ['W_LOGPROB_DRIFT', 1_000_000],
      ['W_ORPHAN_CALL', 1_000_000],
    ]);
  });
});
