import { type Rollout, stableStringify } from '../format';

/** Added to the std before dividing, as GRPO implementations do, so a tiny std cannot explode. */
export const STD_EPSILON = 1e-6;

export interface AdvantageStats {
  n: number;
  mean: number | null;
  /** Sample standard deviation (divides by n-1, as torch.std); null with fewer than two rewards. */
  std: number | null;
  /** One advantage per input reward, in input order. */
  advantages: number[];
  /** Two or more rewards, all equal: the group teaches nothing. */
  zeroVariance: boolean;
}

/**
 * GRPO group statistics over the rewards of the rollouts in the policy signal (§6).
 * `normalizeStd` true: (r - mean) / (std + 1e-6), GRPO; false: r - mean, Dr. GRPO.
 */
export function advantageStats(rewards: readonly number[], normalizeStd = true): AdvantageStats {
  const n = rewards.length;
  if (n === 0) return { n, mean: null, std: null, advantages: [], zeroVariance: false };
  const mean = rewards.reduce((a, b) => a + b, 0) / n;
  if (n === 1) return { n, mean, std: null, advantages: [0], zeroVariance: false };
  const std = Math.sqrt(rewards.reduce((a, r) => a + (r - mean) ** 2, 0) / (n - 1));
  // Compare rewards directly: a float mean of equal values can differ from them in the last bit,
  // which the epsilon would blow up into a visible advantage.
  const zeroVariance = rewards.every((r) => r === rewards[0]);
  const advantages = rewards.map((r) => (zeroVariance ? 0 : normalizeStd ? (r - mean) / (std + STD_EPSILON) : r - mean));
  return { n, mean, std: zeroVariance ? 0 : std, advantages, zeroVariance };
}

/** What the advantage of a group member depends on: whether it is in the policy signal (§4), and its reward. */
export interface Scored {
  inSignal: boolean;
  reward: number | null;
}

/**
 * Advantages of a group's members, index-aligned with `members`: the statistics of §6 over the members
 * in the signal with a numeric reward, and null for every other member (it is never counted or trained).
 * The lint report and the demo trainer both call this, so they cannot disagree.
 */
export function groupAdvantages(
  members: readonly Scored[],
  normalizeStd = true,
): { stats: AdvantageStats; perMember: (number | null)[]; rewards: number[] } {
  const counted = members.map((m) => m.inSignal && m.reward !== null);
  const rewards = members.flatMap((m, i) => (counted[i] && m.reward !== null ? [m.reward] : []));
  const stats = advantageStats(rewards, normalizeStd);
  let k = 0;
  const perMember = members.map((_, i) => (counted[i] ? (stats.advantages[k++] ?? 0) : null));
  return { stats, perMember, rewards };
}

/** The GRPO group of a record: `group_id`, else `task_id@policy_version`. */
export function groupIdOf(record: Rollout): string {
  return record.group_id ?? `${record.task_id}@${record.policy_version ?? ''}`;
}

/** Sampling config compared across a group; the seed is left out because each rollout gets its own. */
export function samplingKey(record: Rollout): string {
  if (!record.sampling) return 'none';
  const { seed: _seed, ...rest } = record.sampling;
  return stableStringify(rest);
}
