import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { findingCodes, groupFindings, rememberFindingGroups, rowCounts } from './findingGroups';
import type { Finding } from './types';

const finding = (code: Finding['code'], step: number): Finding => ({
  code,
  severity: 'warning',
  segment: null,
  step,
  message: `at ${step}`,
});

describe('groupFindings', () => {
  it('counts every finding and keeps the first few of each code, in order', () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom('W_MISSING_METADATA', 'E_DUPLICATE_ROLLOUT', 'W_ZERO_VARIANCE_GROUP'), { maxLength: 200 }),
        fc.integer({ min: 1, max: 6 }),
        (codes, per) => {
          const findings = codes.map((c, i) => finding(c as Finding['code'], i));
          const groups = groupFindings(findings, per);
          expect(groups.reduce((n, g) => n + g.count, 0)).toBe(findings.length);
          expect(groups.map((g) => g.code)).toEqual([...new Set(codes)]);
          for (const g of groups) expect(g.shown).toEqual(findings.filter((f) => f.code === g.code).slice(0, per));
        },
      ),
      { seed: 18, numRuns: 60 },
    );
  });

  it('holds a million findings as a handful of rows', () => {
    const many = Array.from({ length: 1_000_000 }, (_, i) => finding(i % 2 ? 'W_MISSING_METADATA' : 'E_DUPLICATE_ROLLOUT', i));
    const groups = groupFindings(many);
    expect(groups.map((g) => [g.code, g.count, g.shown.length])).toEqual([
      ['E_DUPLICATE_ROLLOUT', 500_000, 5],
      ['W_MISSING_METADATA', 500_000, 5],
    ]);
  });

  it('groups one findings array once: selecting its rollout again does no pass over them', () => {
    const many = Array.from({ length: 1000 }, (_, i) => finding('W_MISSING_METADATA', i));
    const first = groupFindings(many);
    expect(groupFindings(many)).toBe(first);
    expect(groupFindings([...many])).not.toBe(first);
    expect(groupFindings(many, 2)[0]?.shown).toHaveLength(2);
  });

  it('takes groups made in the load worker as a cloned array’s own', () => {
    const many = Array.from({ length: 1000 }, (_, i) => finding('W_MISSING_METADATA', i));
    const made = groupFindings(many);
    const cloned = structuredClone(many);
    rememberFindingGroups(cloned, structuredClone(made));
    expect(groupFindings(cloned)).toEqual(made);
    expect(groupFindings(cloned)).not.toBe(made);
  });

  it('gives the distinct codes in order, from the groups when the worker made them', () => {
    const few = [finding('W_MISSING_METADATA', 1), finding('E_DUPLICATE_ROLLOUT', 2), finding('W_MISSING_METADATA', 3)];
    expect(findingCodes(few)).toEqual(['W_MISSING_METADATA', 'E_DUPLICATE_ROLLOUT']);
    const cloned = structuredClone(few);
    rememberFindingGroups(cloned, [{ code: 'W_ZERO_VARIANCE_GROUP', count: 3, shown: [] }]);
    expect(findingCodes(cloned)).toEqual(['W_ZERO_VARIANCE_GROUP']);
  });
});

describe('rowCounts', () => {
  it('counts a row’s findings and regressions, or takes a run index row’s recorded counts', () => {
    const f = (severity: 'error' | 'warning') => ({ code: 'E_PARSE' as const, severity, segment: null, step: null, message: '' });
    expect(rowCounts({ findings: [f('error'), f('warning'), f('warning')], regressions: [{ step: 2, kind: 'flaky', tests: [] }] })).toEqual(
      {
        errors: 1,
        warnings: 2,
        regressions: 1,
      },
    );
    expect(rowCounts({ findings: [f('warning')], regressions: [], indexed: { errors: 3, warnings: 4, regressions: 5 } })).toEqual({
      errors: 3,
      warnings: 4,
      regressions: 5,
    });
  });
});
