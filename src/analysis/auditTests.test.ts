import { describe, expect, it } from 'vitest';
import { buildStep } from '../testing/builders';
import { lastDevTests, privateTests, testContrast } from './auditTests';

describe('dev tests against private tests', () => {
  const devPass = buildStep({ tool_call_id: 'c-2', tool: 'run_tests', tests: { passed: ['a', 'b'], failed: [], over_budget: [] } });
  const devFail = buildStep({ tool_call_id: 'c-1', tool: 'run_tests', tests: { passed: ['a'], failed: [], over_budget: ['b'] } });
  const finish = buildStep({ tool_call_id: 'c-3', tool: 'finish' });

  it('takes the last run_tests step', () => {
    expect(lastDevTests({ steps: [devFail, devPass, finish] })).toEqual({ step: 2, passed: ['a', 'b'], failed: [], overBudget: [] });
    expect(lastDevTests({ steps: [finish] })).toBeNull();
    expect(lastDevTests({ steps: [buildStep({ tool: 'run_tests' })] })).toEqual({ step: 1, passed: null, failed: [], overBudget: [] });
  });

  it('reads private tests as counts or names', () => {
    expect(privateTests({ grading: { private_tests: { passed: ['x', 'y'], failed: 1 } } })).toEqual({
      passed: 2,
      failed: 1,
      passedNames: ['x', 'y'],
      failedNames: null,
    });
    expect(privateTests({ grading: { verdict: 'pass' } })).toBeNull();
  });

  it('stands out "dev tests passed, private verdict failed"', () => {
    const c = testContrast({ steps: [devFail, devPass, finish], grading: { verdict: 'fail', private_tests: { passed: 3, failed: 1 } } });
    expect(c).toEqual({ kind: 'dev-pass-private-fail', step: 2 });
  });

  it('tells the other cases apart', () => {
    expect(testContrast({ steps: [devPass, finish], grading: { verdict: 'pass' } })).toEqual({ kind: 'agree', passed: true, step: 1 });
    expect(testContrast({ steps: [devFail, finish], grading: { verdict: 'fail' } })).toEqual({ kind: 'agree', passed: false, step: 1 });
    expect(testContrast({ steps: [devFail, finish], grading: { verdict: 'pass' } }).kind).toBe('dev-fail-private-pass');
    expect(testContrast({ steps: [finish], grading: { verdict: 'pass' } })).toMatchObject({ kind: 'incomplete', missing: 'dev-tests' });
    expect(testContrast({ steps: [devPass, finish] })).toMatchObject({ kind: 'incomplete', missing: 'private-verdict' });
    expect(testContrast({ steps: [buildStep({ tool: 'run_tests' })], grading: { verdict: 'pass' } })).toMatchObject({
      kind: 'incomplete',
      missing: 'dev-results',
    });
  });
});
