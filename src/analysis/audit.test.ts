import { describe, expect, it } from 'vitest';
import { buildChain, buildRollout } from '../testing/builders';
import { auditChecks, contractReward, rewardTerms } from './audit';

/** The demo's terms, as its records state them in task.contract. */
const task = { contract: 'Return the index of target. Reward: pass → 1, fail → 0, budget exhausted → 0.' };

function finishing(overrides: Parameters<typeof buildRollout>[0] = {}) {
  return buildRollout({ task, ...buildChain([{ tool: 'edit' }, { tool: 'run_tests' }, { tool: 'finish' }]), ...overrides });
}

function check(record: ReturnType<typeof buildRollout>, id: string) {
  const c = auditChecks(record).find((x) => x.id === id);
  if (!c) throw new Error(`no check ${id}`);
  return c;
}

describe('rewardTerms', () => {
  it('reads the terms a task contract states, and nothing from a contract that states none', () => {
    expect(rewardTerms({ task })).toEqual({ pass: 1, fail: 0, budgetExhausted: 0 });
    expect(rewardTerms({ task: { contract: 'PASS -> 1.5; budget_exhausted -> -0.5' } })).toEqual({
      pass: 1.5,
      fail: null,
      budgetExhausted: -0.5,
    });
    expect(rewardTerms({ task: { contract: 'The input is sorted; return the index of target, else -1.' } })).toBeNull();
    expect(rewardTerms({ task: { prompt: 'p' } })).toBeNull();
    expect(rewardTerms({})).toBeNull();
  });
});

describe('contractReward', () => {
  it('gives what the record’s own terms give for pass, fail and an exhausted budget', () => {
    expect(contractReward({ task, termination: 'finished', grading: { verdict: 'pass' } })).toEqual({
      reward: 1,
      rule: { by: 'verdict', verdict: 'pass' },
    });
    expect(contractReward({ task, termination: 'finished', grading: { verdict: 'fail' } })).toMatchObject({ reward: 0 });
    expect(contractReward({ task, termination: 'budget_exhausted' })).toEqual({ reward: 0, rule: { by: 'budget' } });
  });

  it('applies no other file’s contract: without terms there is no reward to expect', () => {
    expect(contractReward({ termination: 'finished', grading: { verdict: 'pass' } })).toEqual({ reward: null, gap: 'no-contract' });
    expect(contractReward({ task: { contract: 'pass → 1' }, termination: 'budget_exhausted' })).toEqual({
      reward: null,
      gap: 'termination',
      termination: 'budget_exhausted',
    });
  });

  it('says "contract unknown" for any other verdict or termination rather than guess', () => {
    expect(contractReward({ task, termination: 'finished', grading: { verdict: 'error' } })).toEqual({
      reward: null,
      gap: 'verdict',
      verdict: 'error',
    });
    expect(contractReward({ task, termination: 'invalid_call' })).toEqual({
      reward: null,
      gap: 'termination',
      termination: 'invalid_call',
    });
    expect(contractReward({ task, termination: 'finished' })).toEqual({ reward: null, gap: 'no-verdict' });
  });
});

describe('auditChecks: reward vs verdict', () => {
  it('passes when the reward is what the verdict gives', () => {
    expect(check(finishing({ reward: 1, grading: { verdict: 'pass' } }), 'reward-verdict')).toMatchObject({
      status: 'ok',
      reason: 'agrees',
    });
    expect(check(finishing({ reward: 0, grading: { verdict: 'fail' } }), 'reward-verdict')).toMatchObject({ status: 'ok' });
    expect(check(buildRollout({ task, termination: 'budget_exhausted', reward: 0 }), 'reward-verdict')).toMatchObject({ status: 'ok' });
  });

  it('flags a reward the contract does not give, and a missing one', () => {
    expect(check(finishing({ reward: 1, grading: { verdict: 'fail' } }), 'reward-verdict')).toMatchObject({
      status: 'problem',
      reason: 'disagrees',
    });
    expect(check(finishing({ reward: 0.5, grading: { verdict: 'pass' } }), 'reward-verdict').status).toBe('problem');
    expect(check(buildRollout({ task, termination: 'budget_exhausted', reward: 1 }), 'reward-verdict').status).toBe('problem');
    expect(check(finishing({ reward: null, grading: { verdict: 'pass' } }), 'reward-verdict')).toMatchObject({
      status: 'problem',
      reason: 'reward-missing',
    });
  });

  it('is unknown, not a problem, where the contract says nothing; does not apply without a contract', () => {
    expect(check(finishing({ reward: 0, grading: { verdict: 'error' } }), 'reward-verdict')).toMatchObject({
      status: 'unknown',
      reason: 'contract-gap',
    });
    expect(check(buildRollout({ task, termination: 'invalid_call', reward: 0 }), 'reward-verdict').status).toBe('unknown');
    expect(check(finishing({ task: undefined, reward: 1, grading: { verdict: 'fail' } }), 'reward-verdict')).toMatchObject({
      status: 'not-applicable',
      reason: 'contract-gap',
    });
  });

  it('does not apply to excluded rollouts', () => {
    expect(check(buildRollout({ termination: 'infra_failure', reward: null }), 'reward-verdict')).toMatchObject({
      status: 'not-applicable',
      reason: 'excluded',
    });
  });
});

describe('auditChecks: excluded termination carrying a reward', () => {
  it('flags infra_failure and cancelled with a numeric reward', () => {
    expect(check(buildRollout({ termination: 'infra_failure', reward: 0 }), 'excluded-reward').status).toBe('problem');
    expect(check(buildRollout({ termination: 'cancelled', reward: 1 }), 'excluded-reward').reason).toBe('excluded-with-reward');
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
    expect(check(record, 'verdict-without-finish')).toMatchObject({ status: 'problem', reason: 'no-finish' });
  });

  it('cannot tell without steps', () => {
    expect(check(buildRollout({ grading: { verdict: 'pass' } }), 'verdict-without-finish').status).toBe('unknown');
  });

  it('flags a finish without a verdict in the signal, but not in an excluded rollout', () => {
    expect(check(finishing({ reward: 1 }), 'finish-without-verdict')).toMatchObject({ status: 'problem', reason: 'ungraded' });
    expect(check(finishing({ termination: 'infra_failure', reward: null }), 'finish-without-verdict')).toMatchObject({
      status: 'ok',
      reason: 'excluded',
    });
  });

  it('passes a graded finish', () => {
    const record = finishing({ grading: { verdict: 'pass' } });
    expect(check(record, 'verdict-without-finish')).toMatchObject({ status: 'ok', reason: 'finish-graded' });
    expect(check(record, 'finish-without-verdict').status).toBe('ok');
  });
});
