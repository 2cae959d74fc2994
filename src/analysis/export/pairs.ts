/*
 * Preference pairs from GRPO groups (`trajscope export --as dpo`): per group, its best and worst rollout
 * by reward, paired when the rewards differ. Only those two are held per group, never the group, so a
 * run of any size is paired in memory bounded by its number of groups.
 */

/** One rollout offered for pairing: in the policy signal, chosen by the query, with a numeric reward. */
export interface PairCandidate<T> {
  group: string;
  task: string;
  policy: string | null;
  reward: number;
  item: T;
}

/** Why a group gives no pair (each is counted in the export's summary). */
export type PairSkip = 'no_gap' | 'mixed_policy' | 'mixed_task';

/** The words the summary uses for each reason, after "3 groups". */
export const PAIR_SKIP_WORDS: Record<PairSkip, string> = {
  no_gap: 'with no reward gap',
  mixed_policy: 'mixing policy versions',
  mixed_task: 'mixing tasks',
};

export type GroupPair<T> =
  | { group: string; chosen: PairCandidate<T>; rejected: PairCandidate<T> }
  | { group: string; skipped: PairSkip; rollouts: number };

interface Held<T> {
  best: PairCandidate<T>;
  worst: PairCandidate<T>;
  rollouts: number;
  mixedPolicy: boolean;
  mixedTask: boolean;
}

/**
 * Holds each group's best and worst candidate as they come. Ties keep the first one read, so the pairs
 * do not depend on anything but input order. A group whose candidates differ in task or policy version
 * is not paired: a preference between two policies' samples is not one the trainer's group made.
 */
export class GroupPairs<T> {
  private readonly groups = new Map<string, Held<T>>();

  add(c: PairCandidate<T>): void {
    const held = this.groups.get(c.group);
    if (!held) {
      this.groups.set(c.group, { best: c, worst: c, rollouts: 1, mixedPolicy: false, mixedTask: false });
      return;
    }
    held.rollouts++;
    if (c.policy !== held.best.policy) held.mixedPolicy = true;
    if (c.task !== held.best.task) held.mixedTask = true;
    if (c.reward > held.best.reward) held.best = c;
    if (c.reward < held.worst.reward) held.worst = c;
  }

  /** Every group, in the order first seen: its pair, or why it has none. */
  *pairs(): Generator<GroupPair<T>> {
    for (const [group, h] of this.groups) {
      if (h.mixedTask) yield { group, skipped: 'mixed_task', rollouts: h.rollouts };
      else if (h.mixedPolicy) yield { group, skipped: 'mixed_policy', rollouts: h.rollouts };
      else if (h.best.reward === h.worst.reward) yield { group, skipped: 'no_gap', rollouts: h.rollouts };
      else yield { group, chosen: h.best, rejected: h.worst };
    }
  }
}

/**
 * The prompt two conversations share and what each goes on with: the longest run of equal leading
 * messages, cut back to just before a model turn in both, so each side begins with the model's answer.
 * Null when they share nothing before the first model turn, or nothing after it differs.
 */
export function splitPrompt<M>(a: readonly M[], b: readonly M[], same: (x: M, y: M) => boolean, isModel: (m: M) => boolean) {
  let p = 0;
  while (p < a.length && p < b.length && same(a[p] as M, b[p] as M)) p++;
  if (p === a.length && p === b.length) return null;
  const modelAt = (xs: readonly M[], i: number) => i < xs.length && isModel(xs[i] as M);
  while (p > 0 && !(modelAt(a, p) && modelAt(b, p))) p--;
  if (p === 0) return null;
  return { prompt: a.slice(0, p), chosen: a.slice(p), rejected: b.slice(p) };
}
