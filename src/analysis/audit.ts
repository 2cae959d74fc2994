import type { Rollout } from '../format';
import type { AuditSteps } from './auditSteps';
import { rewardExpected, terminationInfo } from './termination';
import { firstFinishStep } from './timeline';

/*
 * Auditing a grader decision (shared/trajectory-format.md §3, §4): is the recorded reward what the
 * verdict gives under the task's own contract, do the verdict and the submission agree. Facts and
 * codes only: the audit view words them (ui/audit/auditWords.ts).
 */

/**
 * What a task contract says a rollout is worth: for a pass and a fail verdict, and for running out of
 * budget (§4: "the task contract says which"). A term the contract does not state is null.
 */
export interface RewardTerms {
  pass: number | null;
  fail: number | null;
  budgetExhausted: number | null;
}

const TERM = /\b(pass|fail|budget[ _]exhausted)\s*(?:→|->)\s*(-?\d+(?:\.\d+)?)/gi;

/**
 * The reward terms written in `task.contract`, as "pass → 1, fail → 0, budget exhausted → 0" (`->` also
 * reads): null when the record names none. A contract is the task's own; no file is judged by another's.
 */
export function rewardTerms(record: Pick<Rollout, 'task'>): RewardTerms | null {
  const text = record.task?.contract;
  if (text === undefined) return null;
  const terms: RewardTerms = { pass: null, fail: null, budgetExhausted: null };
  let found = false;
  for (const [, name = '', value = ''] of text.matchAll(TERM)) {
    const key = name.toLowerCase().startsWith('budget') ? 'budgetExhausted' : name.toLowerCase() === 'pass' ? 'pass' : 'fail';
    terms[key] ??= Number(value);
    found = true;
  }
  return found ? terms : null;
}

/** The rule a contract reward comes from. */
export type ContractRule = { by: 'verdict'; verdict: 'pass' | 'fail' } | { by: 'budget' };

/** The reward the record's contract gives, or why it gives none. */
export type ContractReward =
  | { reward: number; rule: ContractRule }
  | { reward: null; gap: 'no-contract' }
  | { reward: null; gap: 'no-verdict' }
  | { reward: null; gap: 'termination'; termination: string }
  | { reward: null; gap: 'verdict'; verdict: string };

/** The reward the record's own task contract gives this rollout, or why it gives none. */
export function contractReward(record: Pick<Rollout, 'termination' | 'grading' | 'task'>): ContractReward {
  const terms = rewardTerms(record);
  if (terms === null) return { reward: null, gap: 'no-contract' };
  if (record.termination === 'budget_exhausted') {
    return terms.budgetExhausted === null
      ? { reward: null, gap: 'termination', termination: record.termination }
      : { reward: terms.budgetExhausted, rule: { by: 'budget' } };
  }
  const verdict = record.grading?.verdict;
  if (verdict === undefined) {
    return record.termination === 'finished'
      ? { reward: null, gap: 'no-verdict' }
      : { reward: null, gap: 'termination', termination: record.termination };
  }
  const term = verdict === 'pass' ? terms.pass : verdict === 'fail' ? terms.fail : null;
  if (term === null || (verdict !== 'pass' && verdict !== 'fail')) return { reward: null, gap: 'verdict', verdict };
  return { reward: term, rule: { by: 'verdict', verdict } };
}

export type CheckStatus = 'ok' | 'problem' | 'unknown' | 'not-applicable';

export type AuditCheck =
  | { id: 'reward-verdict'; status: CheckStatus; reason: 'excluded' | 'contract-gap' | 'reward-missing' | 'agrees' | 'disagrees' }
  | {
      id: 'excluded-reward';
      status: CheckStatus;
      reason: 'in-signal' | 'unknown-with-reward' | 'unknown-without-reward' | 'excluded-with-reward' | 'excluded-without-reward';
    }
  | { id: 'verdict-without-finish'; status: CheckStatus; reason: 'no-verdict' | 'no-steps' | 'finish-graded' | 'no-finish' }
  | { id: 'finish-without-verdict'; status: CheckStatus; reason: 'no-finish' | 'graded' | 'excluded' | 'ungraded' };

/** What the checks are about, once, for the words of each. */
export interface AuditFacts {
  termination: string;
  reward: number | null;
  verdict: string | null;
  /** The first finish step, or null. */
  finish: number | null;
  contract: ContractReward;
  terms: RewardTerms | null;
}

/** `steps`: the audit's pass over the steps, when the view made it (auditSteps); else the first finish is looked up. */
export function auditFacts(record: Rollout, steps: Pick<AuditSteps, 'finish'> = { finish: firstFinishStep(record) }): AuditFacts {
  return {
    termination: record.termination,
    reward: typeof record.reward === 'number' ? record.reward : null,
    verdict: record.grading?.verdict ?? null,
    finish: steps.finish,
    contract: contractReward(record),
    terms: rewardTerms(record),
  };
}

function rewardVerdictCheck(f: AuditFacts): AuditCheck {
  const id = 'reward-verdict';
  if (!terminationInfo(f.termination).inSignal) return { id, status: 'not-applicable', reason: 'excluded' };
  const c = f.contract;
  // Without reward terms there is nothing to check the reward against: not a problem with the file.
  if (c.reward === null) return { id, status: c.gap === 'no-contract' ? 'not-applicable' : 'unknown', reason: 'contract-gap' };
  if (f.reward === null) return { id, status: 'problem', reason: 'reward-missing' };
  return f.reward === c.reward ? { id, status: 'ok', reason: 'agrees' } : { id, status: 'problem', reason: 'disagrees' };
}

function excludedRewardCheck(f: AuditFacts): AuditCheck {
  const id = 'excluded-reward';
  const expected = rewardExpected(f.termination);
  const hasReward = f.reward !== null;
  if (expected === true) return { id, status: 'not-applicable', reason: 'in-signal' };
  if (expected === null) {
    return hasReward ? { id, status: 'unknown', reason: 'unknown-with-reward' } : { id, status: 'ok', reason: 'unknown-without-reward' };
  }
  return hasReward ? { id, status: 'problem', reason: 'excluded-with-reward' } : { id, status: 'ok', reason: 'excluded-without-reward' };
}

function verdictWithoutFinishCheck(record: Rollout, f: AuditFacts): AuditCheck {
  const id = 'verdict-without-finish';
  if (f.verdict === null) return { id, status: 'not-applicable', reason: 'no-verdict' };
  if (record.steps === undefined) return { id, status: 'unknown', reason: 'no-steps' };
  return f.finish !== null ? { id, status: 'ok', reason: 'finish-graded' } : { id, status: 'problem', reason: 'no-finish' };
}

function finishWithoutVerdictCheck(f: AuditFacts): AuditCheck {
  const id = 'finish-without-verdict';
  if (f.finish === null) return { id, status: 'not-applicable', reason: 'no-finish' };
  if (f.verdict !== null) return { id, status: 'ok', reason: 'graded' };
  // Excluded: consistent with grading that never completed.
  if (!terminationInfo(f.termination).inSignal) return { id, status: 'ok', reason: 'excluded' };
  return { id, status: 'problem', reason: 'ungraded' };
}

/** The four consistency checks of a grader decision, in the order the audit view lists them. */
export function auditChecks(record: Rollout, facts: AuditFacts = auditFacts(record)): AuditCheck[] {
  return [
    rewardVerdictCheck(facts),
    excludedRewardCheck(facts),
    verdictWithoutFinishCheck(record, facts),
    finishWithoutVerdictCheck(facts),
  ];
}
