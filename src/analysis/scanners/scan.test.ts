import { describe, expect, it } from 'vitest';
import { parseScanRules, type Rollout, ScanRuleError } from '../../format';
import { buildRollout, buildStep } from '../../testing/builders';
import { defaultRules } from './defaultRules';
import { scanRollout } from './scan';

const rule = (id: string) => {
  const r = defaultRules().find((x) => x.id === id);
  if (!r) throw new Error(`no rule ${id}`);
  return [r];
};
const hits = (id: string, record: Rollout, regressions: Parameters<typeof scanRollout>[1] = []) =>
  scanRollout(record, regressions, rule(id)).map((f) => [f.code, f.step, f.message]);

const passingTests = buildStep({
  tool_call_id: 'c-t',
  tool: 'run_tests',
  args: {},
  tests: { passed: ['a', 'b'], failed: [], over_budget: [] },
});
const failingTests = buildStep({
  tool_call_id: 'c-t',
  tool: 'run_tests',
  args: {},
  tests: { passed: ['a'], failed: ['b'], over_budget: [] },
});

describe('the default scanner rules: each finds its behaviour, and nothing in a clean rollout', () => {
  it('edited-tests', () => {
    const edit = (path: string) => buildStep({ tool_call_id: 'c-e', tool: 'edit', args: { path, old: 'x', new: 'y' } });
    expect(hits('edited-tests', buildRollout({ steps: [edit('search.py'), edit('tests/test_search.py')] }))).toEqual([
      ['W_SCAN', 2, expect.stringMatching(/^edited-tests: Edited the tests or the grader \(step 2: edit\(path=tests\/test_search.py/)],
    ]);
    expect(
      hits('edited-tests', buildRollout({ steps: [buildStep({ tool: 'str_replace_editor', args: { file_path: 'grader.py' } })] })),
    ).toHaveLength(1);
    expect(
      hits(
        'edited-tests',
        buildRollout({ steps: [edit('search.py'), buildStep({ tool: 'read_file', args: { path: 'test_search.py' } })] }),
      ),
    ).toEqual([]);
  });

  it('finished-without-passing-tests', () => {
    expect(hits('finished-without-passing-tests', buildRollout({ termination: 'finished', steps: [failingTests] }))).toHaveLength(1);
    expect(hits('finished-without-passing-tests', buildRollout({ termination: 'finished', steps: [failingTests, passingTests] }))).toEqual(
      [],
    );
    expect(hits('finished-without-passing-tests', buildRollout({ termination: 'budget_exhausted', steps: [] }))).toEqual([]);
  });

  it('rewarded-failed-verdict and unrewarded-passed-verdict', () => {
    expect(hits('rewarded-failed-verdict', buildRollout({ reward: 1, grading: { verdict: 'fail' } }))).toEqual([
      ['E_SCAN', null, 'rewarded-failed-verdict: Rewarded although the private verdict failed'],
    ]);
    expect(hits('rewarded-failed-verdict', buildRollout({ reward: 1, grading: { verdict: 'pass' } }))).toEqual([]);
    expect(hits('rewarded-failed-verdict', buildRollout({ reward: null, grading: { verdict: 'fail' } }))).toEqual([]);
    expect(hits('unrewarded-passed-verdict', buildRollout({ reward: 0, grading: { verdict: 'pass' } }))).toHaveLength(1);
    expect(hits('unrewarded-passed-verdict', buildRollout({ reward: 1, grading: { verdict: 'pass' } }))).toEqual([]);
  });

  it('repeated-call: three in a row, not three apart', () => {
    const read = (path: string) => buildStep({ tool: 'read_file', args: { path } });
    expect(hits('repeated-call', buildRollout({ steps: [read('a'), read('a'), read('a'), read('b')] }))).toEqual([
      ['W_SCAN', 1, 'repeated-call: The same call repeated three times or more in a row (steps 1–3: read_file(path=a) 3 times in a row)'],
    ]);
    expect(hits('repeated-call', buildRollout({ steps: [read('a'), read('a'), read('b'), read('a')] }))).toEqual([]);
    expect(hits('repeated-call', buildRollout({ steps: [read('a'), read('a'), read('a'), read('a')] }))[0]?.[2]).toMatch(
      /4 times in a row/,
    );
  });

  it('edit-undone: regressions of kind revert, cited at their step', () => {
    const record = buildRollout();
    expect(hits('edit-undone', record, [{ step: 5, kind: 'revert', of_step: 2 }])).toEqual([
      ['W_SCAN', 5, 'edit-undone: An edit undone by a later one (step 5: revert)'],
    ]);
    expect(hits('edit-undone', record, [{ step: 5, kind: 'test', tests: ['a'] }])).toEqual([]);
  });

  it('crash-under-finished', () => {
    const crash = buildStep({
      tool: 'run_shell',
      args: { cmd: 'pytest' },
      observation: { status: 'error', text: 'Segmentation fault (core dumped)' },
    });
    expect(hits('crash-under-finished', buildRollout({ termination: 'finished', steps: [crash] }))).toHaveLength(1);
    expect(hits('crash-under-finished', buildRollout({ termination: 'invalid_call', steps: [crash] }))).toEqual([]);
    const refused = buildStep({ tool: 'edit', observation: { status: 'error', text: 'old text not found' } });
    expect(hits('crash-under-finished', buildRollout({ termination: 'finished', steps: [refused] }))).toEqual([]);
  });

  it('infra-error-as-policy-failure: in the signal only', () => {
    const lost = buildStep({ tool: 'run_tests', observation: { status: 'error', text: 'sandbox lost: container exited' } });
    expect(hits('infra-error-as-policy-failure', buildRollout({ termination: 'finished', reward: 0, steps: [lost] }))).toHaveLength(1);
    expect(hits('infra-error-as-policy-failure', buildRollout({ termination: 'infra_failure', reward: null, steps: [lost] }))).toEqual([]);
  });
});

describe('rule files', () => {
  it('a rule that does not parse is one error naming the rule and the field', () => {
    expect(() => parseScanRules('{"rules": [{"id": "x", "title": "t", "severity": "loud"}]}')).toThrow(ScanRuleError);
    expect(() => parseScanRules('{"rules": [{"id": "x", "title": "t", "severity": "loud"}]}')).toThrow(/^rule "x"\.severity: /);
    expect(() => parseScanRules('{"rules": [{"id": "x", "title": "t", "severity": "warning", "step": {"observation": "("}}]}')).toThrow(
      /^rule "x"\.step\.observation: not a regular expression/,
    );
    expect(() => parseScanRules('{"rules": [{"title": "t"}]}')).toThrow(/^rules\[0\]\.id: /);
    expect(() =>
      parseScanRules('{"rules": [{"id": "a", "title": "t", "severity": "warning"}, {"id": "a", "title": "u", "severity": "warning"}]}'),
    ).toThrow(/used twice/);
    expect(() => parseScanRules('[]')).toThrow(/expected \{"rules"/);
  });

  it('a user rule with a when and no step condition hits the rollout once', () => {
    const rules = parseScanRules(
      '{"rules": [{"id": "long-and-failed", "title": "Long and failed", "severity": "warning", "when": {"reward": {"op": "=", "value": 0}}}]}',
    );
    expect(scanRollout(buildRollout({ reward: 0 }), [], rules).map((f) => f.message)).toEqual(['long-and-failed: Long and failed']);
    expect(scanRollout(buildRollout({ reward: 1 }), [], rules)).toEqual([]);
  });
});
