import { TERMINATIONS, type Termination } from '../format';

/** Termination causes of shared/trajectory-format.md §4, whether each may enter the policy signal, and their words. */

export type KnownTermination = Termination;

export interface TerminationInfo {
  known: boolean;
  /** In the policy signal: counted in group statistics and trained on. */
  inSignal: boolean;
  label: string;
  /** One line a person can read: in signal, or excluded and why. */
  meaning: string;
}

const TABLE: Record<KnownTermination, TerminationInfo> = {
  finished: { known: true, inSignal: true, label: 'finished', meaning: 'in signal: submitted normally, reward is the grader’s verdict' },
  budget_exhausted: {
    known: true,
    inSignal: true,
    label: 'budget exhausted',
    meaning: 'in signal: hit the action or time budget, reward follows the task contract',
  },
  invalid_call: { known: true, inSignal: true, label: 'invalid call', meaning: 'in signal: the model made a call the protocol rejects' },
  infra_failure: {
    known: true,
    inSignal: false,
    label: 'infra failure',
    meaning: 'excluded: infrastructure failure, invalid and to be retried; never a policy failure',
  },
  cancelled: { known: true, inSignal: false, label: 'cancelled', meaning: 'excluded: cancelled from outside, handled separately' },
};

export function isKnownTermination(t: string): t is KnownTermination {
  return Object.hasOwn(TABLE, t);
}

/** Sort rank in §4 order: the known causes first, in the contract's order, then any other value. */
export function terminationRank(t: string): number {
  const known = (TERMINATIONS as readonly string[]).indexOf(t);
  return known === -1 ? TERMINATIONS.length : known;
}

/** The known causes that put a rollout in the policy signal, in §4 order. */
export const IN_SIGNAL_TERMINATIONS: readonly KnownTermination[] = TERMINATIONS.filter((t) => TABLE[t].inSignal);

export function terminationInfo(termination: string): TerminationInfo {
  if (isKnownTermination(termination)) return TABLE[termination];
  return {
    known: false,
    inSignal: false,
    label: termination,
    meaning: `excluded: unknown termination "${termination}" (W_UNKNOWN_TERMINATION)`,
  };
}

/** Whether a rollout must carry a numeric reward (true) or must not (false). */
export function rewardExpected(termination: string): boolean | null {
  if (!isKnownTermination(termination)) return null;
  return TABLE[termination].inSignal;
}
