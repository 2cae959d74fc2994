import { describe, expect, it } from 'vitest';
import { buildChain, buildRollout } from '../testing/builders';
import { findRegressions } from './regressions';

const edit = (old: string, neu: string, status = 'ok', path = 'search.py') => ({
  tool: 'edit',
  args: { path, old, new: neu },
  observation: { status, text: status === 'ok' ? 'patch applied' : 'not found' },
});
const read = { tool: 'read_file', args: { path: 'search.py' } };
const tests = (passed: string[], failed: string[] = [], over_budget: string[] = []) => ({
  tool: 'run_tests',
  args: {},
  tests: { passed, failed, over_budget },
});
const finish = { tool: 'finish', args: {} };
const regressions = (...tools: Parameters<typeof buildChain>[0]) => findRegressions(buildRollout(buildChain(tools)));

describe('regressions (§5)', () => {
  it('the design article’s six steps have none: the partial fix with tests still failing is not one', () => {
    expect(
      regressions(
        read,
        edit('low = mid', 'low = mid + 1'),
        tests(['find 3', 'find 6'], [], ['find 0']),
        edit('high = mid', 'high = mid - 1'),
        tests(['find 3', 'find 6', 'find 0']),
        finish,
      ),
    ).toEqual([]);
  });

  it('revert: undoing an applied edit names the step it undoes, and the tests it broke', () => {
    expect(
      regressions(
        read,
        edit('low = mid', 'low = mid + 1'),
        tests(['find 3', 'find 6'], [], ['find 0']),
        edit('high = mid', 'high = mid - 1'),
        tests(['find 3', 'find 6', 'find 0']),
        edit('low = mid + 1', 'low = mid'),
        tests(['find 3', 'find 0'], [], ['find 6']),
      ),
    ).toEqual([
      { step: 6, kind: 'revert', of_step: 2 },
      { step: 6, kind: 'test', tests: ['find 6'] },
    ]);
  });

  it('revert needs the earlier edit to have applied (status ok or absent)', () => {
    expect(regressions(edit('a', 'b', 'error'), edit('b', 'a'))).toEqual([]);
    const noStatus = { tool: 'edit', args: { path: 'p', old: 'a', new: 'b' } };
    expect(regressions(noStatus, edit('b', 'a', 'ok', 'p'))).toEqual([{ step: 2, kind: 'revert', of_step: 1 }]);
  });

  it('revert needs the same path; edits without a path match each other', () => {
    expect(regressions(edit('a', 'b', 'ok', 'x.py'), edit('b', 'a', 'ok', 'y.py'))).toEqual([]);
    const bare = (old: string, neu: string) => ({ tool: 'edit', args: { old, new: neu }, observation: { status: 'ok' } });
    expect(regressions(bare('a', 'b'), bare('b', 'a'))).toEqual([{ step: 2, kind: 'revert', of_step: 1 }]);
  });

  it('revert names the most recent edit it undoes', () => {
    expect(regressions(edit('a', 'b'), edit('b', 'a'), edit('a', 'b'), edit('b', 'a'))).toEqual([
      { step: 2, kind: 'revert', of_step: 1 },
      { step: 3, kind: 'revert', of_step: 2 },
      { step: 4, kind: 'revert', of_step: 3 },
    ]);
  });

  it('test: every edit between two runs is marked with the tests that broke', () => {
    expect(regressions(tests(['t1', 't2']), edit('x', 'y'), read, edit('p', 'q'), tests(['t2'], ['t1']))).toEqual([
      { step: 2, kind: 'test', tests: ['t1'] },
      { step: 4, kind: 'test', tests: ['t1'] },
    ]);
  });

  it('over budget counts as broken', () => {
    expect(regressions(tests(['t1']), edit('x', 'y'), tests([], [], ['t1']))).toEqual([{ step: 2, kind: 'test', tests: ['t1'] }]);
  });

  it('flaky: a test breaks with no edit between the runs, and the later run is marked', () => {
    expect(regressions(tests(['t1']), read, tests([], ['t1']))).toEqual([{ step: 3, kind: 'flaky', tests: ['t1'] }]);
  });

  it('compares consecutive runs that carry a tests object, skipping runs without one', () => {
    const bareRun = { tool: 'run_tests', args: {} };
    expect(regressions(tests(['t1']), edit('x', 'y'), bareRun, tests([], ['t1']))).toEqual([{ step: 2, kind: 'test', tests: ['t1'] }]);
  });

  it('a test that was never passing is not a regression', () => {
    expect(regressions(tests([], ['t1']), edit('x', 'y'), tests([], ['t1']))).toEqual([]);
  });
});
