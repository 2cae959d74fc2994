import { describe, expect, it } from 'vitest';
import { auditChecks, auditFacts } from '../../analysis';
import type { Rollout } from '../../format';
import { buildChain, buildRollout } from '../../testing/builders';
import { contractText, wordChecks } from './auditWords';

const task = { contract: 'Reward: pass → 1, fail → 0, budget exhausted → 0.' };

function worded(record: Rollout, id: string) {
  const facts = auditFacts(record);
  const c = wordChecks(auditChecks(record, facts), facts).find((x) => x.id === id);
  if (!c) throw new Error(`no check ${id}`);
  return c;
}

const finishing = (overrides: Partial<Rollout> = {}) =>
  buildRollout({ task, ...buildChain([{ tool: 'edit' }, { tool: 'run_tests' }, { tool: 'finish' }]), ...overrides });

describe('the audit view’s words', () => {
  it('names the record’s own terms in the reward check, or says none are recorded', () => {
    expect(worded(finishing({ reward: 1, grading: { verdict: 'pass' } }), 'reward-verdict')).toMatchObject({
      title: 'Reward under the contract (pass → 1, fail → 0, budget exhausted → 0)',
      detail: 'reward 1 agrees: verdict pass → 1.',
    });
    expect(worded(finishing({ task: undefined, reward: 1, grading: { verdict: 'pass' } }), 'reward-verdict')).toMatchObject({
      title: 'Reward under the contract (none recorded)',
      detail: 'reward 1: the record states no reward terms in task.contract, so there is nothing to check it against.',
    });
  });

  it('says what disagrees and what is missing', () => {
    expect(worded(finishing({ reward: 1, grading: { verdict: 'fail' } }), 'reward-verdict').detail).toBe(
      'reward 1 disagrees with the contract: verdict fail → 0.',
    );
    expect(worded(finishing({ reward: null, grading: { verdict: 'pass' } }), 'reward-verdict').detail).toBe(
      'No reward recorded, but verdict pass → 1.',
    );
    expect(worded(finishing({ reward: 0, grading: { verdict: 'error' } }), 'reward-verdict').detail).toBe(
      'reward 0: contract unknown for verdict "error".',
    );
  });

  it('words the excluded-reward and finish checks', () => {
    expect(worded(buildRollout({ termination: 'cancelled', reward: 1 }), 'excluded-reward').detail).toContain('E_EXCLUDED_HAS_REWARD');
    expect(worded(finishing({ reward: 1 }), 'finish-without-verdict').detail).toBe(
      'The finish at step 3 has no verdict, yet the rollout is in the policy signal with reward 1.',
    );
    expect(worded(finishing({ grading: { verdict: 'pass' } }), 'verdict-without-finish').detail).toBe(
      'Verdict pass grades the finish at step 3.',
    );
    expect(worded(finishing({ termination: 'infra_failure', reward: null }), 'finish-without-verdict').detail).toBe(
      'The finish at step 3 has no verdict, and the rollout is excluded (infra failure): consistent with grading that never completed.',
    );
  });

  it('words the contract’s expectation for the verdict card', () => {
    expect(contractText(auditFacts(finishing({ termination: 'budget_exhausted' })).contract)).toBe('budget exhausted → 0 (expects 0.0)');
    expect(contractText(auditFacts(buildRollout({ termination: 'invalid_call' })).contract)).toContain('no reward terms');
  });
});
