import { describe, expect, it } from 'vitest';
import { buildChain, buildRollout, buildStep } from '../testing/builders';
import {
  auditChecks,
  compareDigest,
  contractReward,
  graderIdentity,
  lastDevTests,
  normalizeDigest,
  privateTests,
  processScoreRows,
  testContrast,
  toHex,
} from './audit';

const HEX = 'a6f81f41acd7f4e6f0f8bbaaf4395bdd615b2c6757ca7a9a178567d324327d26';

function finishing(overrides: Parameters<typeof buildRollout>[0] = {}) {
  return buildRollout({ ...buildChain([{ tool: 'edit' }, { tool: 'run_tests' }, { tool: 'finish' }]), ...overrides });
}

function check(record: ReturnType<typeof buildRollout>, id: string) {
  const c = auditChecks(record).find((x) => x.id === id);
  if (!c) throw new Error(`no check ${id}`);
  return c;
}

describe('contractReward', () => {
  it('gives 1 for pass, 0 for fail and 0 for an exhausted budget', () => {
    expect(contractReward({ termination: 'finished', grading: { verdict: 'pass' } })).toMatchObject({ reward: 1 });
    expect(contractReward({ termination: 'finished', grading: { verdict: 'fail' } })).toMatchObject({ reward: 0 });
    expect(contractReward({ termination: 'budget_exhausted' })).toMatchObject({ reward: 0, rule: 'budget exhausted → 0' });
  });

  it('says "contract unknown" for any other verdict or termination rather than guess', () => {
    expect(contractReward({ termination: 'finished', grading: { verdict: 'error' } })).toEqual({
      reward: null,
      why: 'contract unknown for verdict "error"',
    });
    expect(contractReward({ termination: 'invalid_call' })).toEqual({
      reward: null,
      why: 'contract unknown for termination invalid_call without a verdict',
    });
    expect(contractReward({ termination: 'finished' })).toMatchObject({ reward: null, why: 'no grader verdict to derive the reward from' });
  });
});

describe('auditChecks: reward vs verdict', () => {
  it('passes when the reward is what the verdict gives', () => {
    expect(check(finishing({ reward: 1, grading: { verdict: 'pass' } }), 'reward-verdict')).toMatchObject({ status: 'ok' });
    expect(check(finishing({ reward: 0, grading: { verdict: 'fail' } }), 'reward-verdict')).toMatchObject({ status: 'ok' });
    expect(check(buildRollout({ termination: 'budget_exhausted', reward: 0 }), 'reward-verdict')).toMatchObject({ status: 'ok' });
  });

  it('flags a reward the contract does not give, and a missing one', () => {
    const wrong = check(finishing({ reward: 1, grading: { verdict: 'fail' } }), 'reward-verdict');
    expect(wrong.status).toBe('problem');
    expect(wrong.detail).toBe('reward 1 disagrees with the contract: verdict fail → 0.');
    expect(check(finishing({ reward: 0.5, grading: { verdict: 'pass' } }), 'reward-verdict').status).toBe('problem');
    expect(check(buildRollout({ termination: 'budget_exhausted', reward: 1 }), 'reward-verdict').status).toBe('problem');
    expect(check(finishing({ reward: null, grading: { verdict: 'pass' } }), 'reward-verdict')).toMatchObject({
      status: 'problem',
      detail: 'No reward recorded, but verdict pass → 1.',
    });
  });

  it('is unknown, not a problem, where the contract says nothing', () => {
    expect(check(finishing({ reward: 0, grading: { verdict: 'error' } }), 'reward-verdict')).toMatchObject({
      status: 'unknown',
      detail: 'reward 0: contract unknown for verdict "error".',
    });
    expect(check(buildRollout({ termination: 'invalid_call', reward: 0 }), 'reward-verdict').status).toBe('unknown');
  });

  it('does not apply to excluded rollouts', () => {
    expect(check(buildRollout({ termination: 'infra_failure', reward: null }), 'reward-verdict').status).toBe('not-applicable');
  });
});

describe('auditChecks: excluded termination carrying a reward', () => {
  it('flags infra_failure and cancelled with a numeric reward', () => {
    expect(check(buildRollout({ termination: 'infra_failure', reward: 0 }), 'excluded-reward').status).toBe('problem');
    expect(check(buildRollout({ termination: 'cancelled', reward: 1 }), 'excluded-reward').detail).toContain('E_EXCLUDED_HAS_REWARD');
  });

  it('accepts an excluded rollout without reward and ignores in-signal ones', () => {
    expect(check(buildRollout({ termination: 'cancelled', reward: null }), 'excluded-reward').status).toBe('ok');
    expect(check(buildRollout({ termination: 'finished', reward: 1 }), 'excluded-reward').status).toBe('not-applicable');
  });

  it('is unknown for an unknown termination with a reward', () => {
    expect(check(buildRollout({ termination: 'timeout', reward: 0 }), 'excluded-reward').status).toBe('unknown');
  });
});

describe('auditChecks: verdict and finish', () => {
  it('flags a verdict without a finish step', () => {
    const record = buildRollout({ ...buildChain([{ tool: 'edit' }, { tool: 'run_tests' }]), grading: { verdict: 'pass' } });
    expect(check(record, 'verdict-without-finish')).toMatchObject({ status: 'problem' });
  });

  it('cannot tell without steps', () => {
    expect(check(buildRollout({ grading: { verdict: 'pass' } }), 'verdict-without-finish').status).toBe('unknown');
  });

  it('flags a finish without a verdict in the signal, but not in an excluded rollout', () => {
    expect(check(finishing({ reward: 1 }), 'finish-without-verdict')).toMatchObject({
      status: 'problem',
      detail: 'The finish at step 3 has no verdict, yet the rollout is in the policy signal with reward 1.',
    });
    expect(check(finishing({ termination: 'infra_failure', reward: null }), 'finish-without-verdict').status).toBe('ok');
  });

  it('passes a graded finish', () => {
    const record = finishing({ grading: { verdict: 'pass' } });
    expect(check(record, 'verdict-without-finish')).toMatchObject({ status: 'ok', detail: 'Verdict pass grades the finish at step 3.' });
    expect(check(record, 'finish-without-verdict').status).toBe('ok');
  });
});

describe('normalizeDigest / compareDigest', () => {
  it('accepts sha256:<hex> and bare hex in any case', () => {
    expect(normalizeDigest(`sha256:${HEX}`)).toEqual({ kind: 'sha256', hex: HEX, prefixed: true });
    expect(normalizeDigest(HEX.toUpperCase())).toEqual({ kind: 'sha256', hex: HEX, prefixed: false });
    expect(normalizeDigest(`SHA-256:${HEX}`)).toMatchObject({ kind: 'sha256', hex: HEX });
  });

  it('says absent for a missing or blank digest and keeps anything else as unrecognised', () => {
    expect(normalizeDigest(undefined)).toEqual({ kind: 'absent' });
    expect(normalizeDigest('  ')).toEqual({ kind: 'absent' });
    expect(normalizeDigest('md5:0cc175b9c0f1b6a831c399e269772661')).toEqual({
      kind: 'unrecognised',
      text: 'md5:0cc175b9c0f1b6a831c399e269772661',
    });
    expect(normalizeDigest(`sha256:${HEX.slice(0, 16)}`).kind).toBe('unrecognised');
  });

  it('compares with the computed digest', () => {
    expect(compareDigest(`sha256:${HEX}`, HEX)).toEqual({ status: 'match', hex: HEX });
    expect(compareDigest(HEX, HEX.toUpperCase())).toEqual({ status: 'match', hex: HEX });
    const other = `${'0'.repeat(63)}1`;
    expect(compareDigest(`sha256:${other}`, HEX)).toEqual({ status: 'mismatch', recorded: other, computed: HEX });
    expect(compareDigest(undefined, HEX)).toEqual({ status: 'absent', computed: HEX });
    expect(compareDigest('crc32:1234', HEX)).toEqual({ status: 'unrecognised', recorded: 'crc32:1234', computed: HEX });
  });

  it('prints bytes as lower-case hex', () => {
    expect(toHex(new Uint8Array([0, 15, 16, 255]))).toBe('000f10ff');
  });
});

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
    expect(c.kind).toBe('dev-pass-private-fail');
    expect(c.message).toContain('Dev tests passed (step 2), private verdict failed');
  });

  it('tells the other cases apart', () => {
    expect(testContrast({ steps: [devPass, finish], grading: { verdict: 'pass' } }).kind).toBe('agree');
    expect(testContrast({ steps: [devFail, finish], grading: { verdict: 'fail' } }).kind).toBe('agree');
    expect(testContrast({ steps: [devFail, finish], grading: { verdict: 'pass' } }).kind).toBe('dev-fail-private-pass');
    expect(testContrast({ steps: [finish], grading: { verdict: 'pass' } }).kind).toBe('incomplete');
    expect(testContrast({ steps: [devPass, finish] }).kind).toBe('incomplete');
  });
});

describe('processScoreRows', () => {
  it('joins step process_reward and grader process_scores by step, in step order', () => {
    const { steps } = buildChain([{ tool: 'read_file' }, { tool: 'edit', process_reward: 0.5 }, { tool: 'finish' }]);
    const rows = processScoreRows({
      steps,
      grading: {
        process_scores: [
          { step: 3, name: 'submitted', value: 1 },
          { step: 2, name: 'fixes a bug', value: 1 },
          { name: 'overall', value: 0.8 },
          { step: 9, name: 'ghost', value: 0 },
        ],
      },
    });
    expect(rows.map((r) => [r.step, r.tool, r.processReward, r.scores.map((s) => s.name), r.missingStep])).toEqual([
      [2, 'edit', 0.5, ['fixes a bug'], false],
      [3, 'finish', null, ['submitted'], false],
      [9, null, null, ['ghost'], true],
      [null, null, null, ['overall'], false],
    ]);
  });

  it('is empty when nothing is scored', () => {
    expect(processScoreRows({ steps: buildChain([{ tool: 'finish' }]).steps })).toEqual([]);
  });
});

describe('graderIdentity', () => {
  it('prefers grading.grader and notices a disagreement with the record’s grader', () => {
    expect(graderIdentity({ grader: { name: 'g', version: '1' } })).toEqual({ name: 'g', version: '1', differs: false });
    expect(graderIdentity({ grader: { name: 'g', version: '1' }, grading: { grader: { name: 'g', version: '2' } } })).toEqual({
      name: 'g',
      version: '2',
      differs: true,
    });
    expect(graderIdentity({})).toEqual({ name: null, version: null, differs: false });
  });
});
