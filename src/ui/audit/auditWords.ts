import type { AuditCheck, AuditFacts, ContractReward, ContractRule, RewardTerms, TestContrast } from '../../analysis';
import { terminationInfo } from '../../analysis';
import { formatReward, rewardNumber } from '../shared/format';

/* The audit view's words for the facts and codes of src/analysis/audit.ts. */

/** A check as the view lists it. */
export interface WordedCheck {
  id: AuditCheck['id'];
  status: AuditCheck['status'];
  /** What is checked, in a few words. */
  title: string;
  /** What was found, in one sentence a person can act on. */
  detail: string;
}

const rewardText = (reward: number | null) => (reward === null ? 'no reward' : `reward ${rewardNumber(reward)}`);

/** "pass → 1, fail → 0, budget exhausted → 0": the terms a contract states. */
function termsText(terms: RewardTerms): string {
  const parts: string[] = [];
  if (terms.pass !== null) parts.push(`pass → ${rewardNumber(terms.pass)}`);
  if (terms.fail !== null) parts.push(`fail → ${rewardNumber(terms.fail)}`);
  if (terms.budgetExhausted !== null) parts.push(`budget exhausted → ${rewardNumber(terms.budgetExhausted)}`);
  return parts.join(', ');
}

function ruleText(rule: ContractRule, reward: number): string {
  return rule.by === 'budget' ? `budget exhausted → ${rewardNumber(reward)}` : `verdict ${rule.verdict} → ${rewardNumber(reward)}`;
}

/** Why the contract gives no reward, as a clause. */
function gapText(c: Extract<ContractReward, { reward: null }>): string {
  switch (c.gap) {
    case 'no-contract':
      return 'the record states no reward terms in task.contract, so there is nothing to check it against';
    case 'no-verdict':
      return 'no grader verdict to derive the reward from';
    case 'termination':
      return `contract unknown for termination ${c.termination} without a verdict`;
    case 'verdict':
      return `contract unknown for verdict "${c.verdict}"`;
  }
}

/** The contract's reward for the verdict card: the rule and what it expects, or why there is none. */
export function contractText(c: ContractReward): string {
  return c.reward === null ? gapText(c) : `${ruleText(c.rule, c.reward)} (expects ${formatReward(c.reward)})`;
}

function title(id: AuditCheck['id'], f: AuditFacts): string {
  switch (id) {
    case 'reward-verdict':
      return `Reward under the contract (${f.terms ? termsText(f.terms) : 'none recorded'})`;
    case 'excluded-reward':
      return 'Excluded termination carries no reward';
    case 'verdict-without-finish':
      return 'A verdict follows a finish step';
    case 'finish-without-verdict':
      return 'A finish step is graded';
  }
}

function detail(c: AuditCheck, f: AuditFacts): string {
  const t = f.termination;
  const label = terminationInfo(t).label;
  const contract = f.contract;
  const rule = contract.reward === null ? '' : ruleText(contract.rule, contract.reward);
  switch (c.reason) {
    // reward-verdict
    case 'excluded':
      return c.id === 'reward-verdict'
        ? `${label}: excluded from the policy signal, so no reward is due.`
        : `The finish at step ${f.finish} has no verdict, and the rollout is excluded (${label}): consistent with grading that never completed.`;
    case 'contract-gap':
      return contract.reward === null ? `${rewardText(f.reward)}: ${gapText(contract)}.` : '';
    case 'reward-missing':
      return `No reward recorded, but ${rule}.`;
    case 'agrees':
      return `${rewardText(f.reward)} agrees: ${rule}.`;
    case 'disagrees':
      return `${rewardText(f.reward)} disagrees with the contract: ${rule}.`;
    // excluded-reward
    case 'in-signal':
      return `${t} is in the policy signal: a reward is expected.`;
    case 'unknown-with-reward':
      return `Unknown termination "${t}" is left out of the signal, yet carries ${rewardText(f.reward)}.`;
    case 'unknown-without-reward':
      return `Unknown termination "${t}" is left out of the signal and carries no reward.`;
    case 'excluded-with-reward':
      return `${t} carries ${rewardText(f.reward)}: an excluded rollout must have a null reward (E_EXCLUDED_HAS_REWARD).`;
    case 'excluded-without-reward':
      return `${t} carries no reward, as an excluded rollout should.`;
    // verdict-without-finish
    case 'no-verdict':
      return 'No verdict recorded.';
    case 'no-steps':
      return `Verdict ${f.verdict}, but the record has no steps to show a finish.`;
    case 'finish-graded':
      return `Verdict ${f.verdict} grades the finish at step ${f.finish}.`;
    case 'no-finish':
      return c.id === 'verdict-without-finish'
        ? `Verdict ${f.verdict}, but no finish step: the grader scored an artifact the model never submitted.`
        : 'No finish step.';
    // finish-without-verdict
    case 'graded':
      return `The finish at step ${f.finish} has verdict ${f.verdict}.`;
    case 'ungraded':
      return `The finish at step ${f.finish} has no verdict, yet the rollout is in the policy signal with ${rewardText(f.reward)}.`;
  }
}

/** Each check with its title and a sentence saying what was found. */
export function wordChecks(checks: readonly AuditCheck[], facts: AuditFacts): WordedCheck[] {
  return checks.map((c) => ({ id: c.id, status: c.status, title: title(c.id, facts), detail: detail(c, facts) }));
}

/** The dev/private comparison in one sentence, when both sides agree. */
export function agreementText(contrast: Extract<TestContrast, { kind: 'agree' }>): string {
  return contrast.passed ? 'Dev tests and private verdict both passed.' : 'Dev tests and private verdict both failed.';
}
