import { describe, expect, it } from 'vitest';
import { rowCounts } from './findingGroups';

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
