import type { RegradeRow } from '../../format';
import { type AdvantageStats, groupAdvantages } from '../groups';
import { matchRegradeRows, type RolloutPlace } from './match';

/*
 * What a regrade would have changed (issue 27, item 2): the rollouts whose verdict or reward changed,
 * and, with every regraded reward in place of the old one, each group's GRPO statistics (through the one
 * GRPO of groups.ts), the zero-variance groups, and the in-signal reward by training step. A rollout the
 * regrade could not grade (an error row, or none) keeps its old reward and is counted as such.
 */

/** What the effect needs of a loaded rollout (a RolloutSummary has it). */
interface RegradeSubject extends RolloutPlace {
  task_id: string;
  group_id: string;
  in_signal: boolean;
  reward: number | null;
}

export interface RegradeEffectInput {
  rollouts: readonly RegradeSubject[];
  /** Each rollout's training step (index-aligned), null where it has none; absent or empty when unknown. */
  trainingSteps?: readonly (number | null)[];
  /** The rows of one grader command. */
  rows: readonly RegradeRow[];
  /** GRPO (true) or Dr. GRPO (false): the page's advantage mode. */
  normalizeStd: boolean;
}

/** A rollout whose verdict or reward the regrade changed. */
export interface Flip {
  /** Its index among the rollouts. */
  index: number;
  row: RegradeRow;
  oldVerdict: string | null;
  newVerdict: string | null;
  oldReward: number | null;
  newReward: number;
  /** Both verdicts known and different. */
  verdictChanged: boolean;
  rewardChanged: boolean;
  /** Its advantage in its group before and after; null when not counted (out of the signal). */
  oldAdvantage: number | null;
  newAdvantage: number | null;
}

interface GroupStats {
  n: number;
  mean: number | null;
  std: number | null;
  zeroVariance: boolean;
}

export interface GroupChange {
  group_id: string;
  rollouts: number;
  /** Members with a new reward from the regrade. */
  regraded: number;
  old: GroupStats;
  new: GroupStats;
  /** Members whose advantage changed. */
  advantagesChanged: number;
}

export interface StepRewards {
  step: number;
  /** In-signal reward mean over the rollouts of the step with a numeric reward; null with none. */
  oldMean: number | null;
  newMean: number | null;
  n: number;
}

export interface RegradeEffect {
  /** Table rows matched to a loaded rollout, and those that matched none. */
  matched: number;
  unmatched: number;
  /** Rows matched by rollout key only (the table names the file differently). */
  matchedByKey: number;
  /** Matched rows with a new reward. */
  regraded: number;
  /** Matched rows without one, by error kind (`no_reward`: a row with neither a reward nor an error). */
  errors: ReadonlyMap<string, number>;
  /** Matched rows whose recorded old reward is not the loaded one: the source changed since the regrade. */
  oldRewardDiffers: number;
  flips: Flip[];
  failToPass: number;
  passToFail: number;
  /** Each rollout's reward after the regrade (the old one where it was not regraded). */
  newRewards: (number | null)[];
  oldAdvantages: (number | null)[];
  newAdvantages: (number | null)[];
  /** Groups whose mean, std, zero variance or any advantage changed, in first-seen order. */
  changedGroups: GroupChange[];
  /** Groups that became zero-variance (teach nothing now) and that stopped being so. */
  becameZeroVariance: string[];
  stoppedZeroVariance: string[];
  zeroVarianceBefore: number;
  zeroVarianceAfter: number;
  /** Per training step, ascending; empty when no rollout has one. */
  trend: StepRewards[];
}

/** A row with a new reward: graded, not an error. */
const isGraded = (row: RegradeRow | undefined): row is RegradeRow & { new_reward: number } =>
  row !== undefined && row.error_kind === null && row.new_reward !== null;

const statsOf = (s: AdvantageStats): GroupStats => ({ n: s.n, mean: s.mean, std: s.std, zeroVariance: s.zeroVariance });
const sameStats = (a: GroupStats, b: GroupStats) =>
  a.n === b.n && a.mean === b.mean && a.std === b.std && a.zeroVariance === b.zeroVariance;

/** The regrade's effect on the loaded rollouts; see RegradeEffect. */
export function regradeEffect({ rollouts, trainingSteps, rows, normalizeStd }: RegradeEffectInput): RegradeEffect {
  const match = matchRegradeRows(rollouts, rows);
  const errors = new Map<string, number>();
  let regraded = 0;
  let oldRewardDiffers = 0;
  const newRewards = rollouts.map((r, i) => {
    const row = match.byRollout[i];
    if (!row) return r.reward;
    if (row.old_reward !== r.reward) oldRewardDiffers++;
    if (!isGraded(row)) {
      const kind = row.error_kind ?? 'no_reward';
      errors.set(kind, (errors.get(kind) ?? 0) + 1);
      return r.reward;
    }
    regraded++;
    return row.new_reward;
  });

  const oldAdvantages: (number | null)[] = rollouts.map(() => null);
  const newAdvantages: (number | null)[] = rollouts.map(() => null);
  const members = new Map<string, number[]>();
  rollouts.forEach((r, i) => {
    const list = members.get(r.group_id);
    if (list) list.push(i);
    else members.set(r.group_id, [i]);
  });
  const changedGroups: GroupChange[] = [];
  const became: string[] = [];
  const stopped: string[] = [];
  let zeroBefore = 0;
  let zeroAfter = 0;
  for (const [group_id, indices] of members) {
    const scored = (reward: (i: number) => number | null) =>
      indices.map((i) => ({ inSignal: rollouts[i]?.in_signal ?? false, reward: reward(i) }));
    const before = groupAdvantages(
      scored((i) => rollouts[i]?.reward ?? null),
      normalizeStd,
    );
    const after = groupAdvantages(
      scored((i) => newRewards[i] ?? null),
      normalizeStd,
    );
    let advantagesChanged = 0;
    indices.forEach((i, k) => {
      oldAdvantages[i] = before.perMember[k] ?? null;
      newAdvantages[i] = after.perMember[k] ?? null;
      if (oldAdvantages[i] !== newAdvantages[i]) advantagesChanged++;
    });
    const old = statsOf(before.stats);
    const now = statsOf(after.stats);
    if (old.zeroVariance) zeroBefore++;
    if (now.zeroVariance) zeroAfter++;
    if (!old.zeroVariance && now.zeroVariance) became.push(group_id);
    if (old.zeroVariance && !now.zeroVariance) stopped.push(group_id);
    if (advantagesChanged > 0 || !sameStats(old, now)) {
      const regradedHere = indices.filter((i) => isGraded(match.byRollout[i])).length;
      changedGroups.push({ group_id, rollouts: indices.length, regraded: regradedHere, old, new: now, advantagesChanged });
    }
  }

  const flips: Flip[] = [];
  let failToPass = 0;
  let passToFail = 0;
  match.byRollout.forEach((row, index) => {
    if (!isGraded(row)) return;
    const newReward = row.new_reward;
    const oldReward = rollouts[index]?.reward ?? null;
    const verdictChanged = row.old_verdict !== null && row.new_verdict !== null && row.old_verdict !== row.new_verdict;
    const rewardChanged = oldReward !== newReward;
    if (!verdictChanged && !rewardChanged) return;
    if (verdictChanged && row.old_verdict === 'fail' && row.new_verdict === 'pass') failToPass++;
    if (verdictChanged && row.old_verdict === 'pass' && row.new_verdict === 'fail') passToFail++;
    flips.push({
      index,
      row,
      oldVerdict: row.old_verdict,
      newVerdict: row.new_verdict,
      oldReward,
      newReward,
      verdictChanged,
      rewardChanged,
      oldAdvantage: oldAdvantages[index] ?? null,
      newAdvantage: newAdvantages[index] ?? null,
    });
  });

  return {
    matched: rows.length - match.unmatched.length,
    unmatched: match.unmatched.length,
    matchedByKey: match.byKey,
    regraded,
    errors,
    oldRewardDiffers,
    flips,
    failToPass,
    passToFail,
    newRewards,
    oldAdvantages,
    newAdvantages,
    changedGroups,
    becameZeroVariance: became,
    stoppedZeroVariance: stopped,
    zeroVarianceBefore: zeroBefore,
    zeroVarianceAfter: zeroAfter,
    trend: stepTrend(rollouts, trainingSteps, newRewards),
  };
}

/** The in-signal reward mean per training step, before and after (as the run page's reward trend counts). */
function stepTrend(
  rollouts: readonly RegradeSubject[],
  steps: readonly (number | null)[] | undefined,
  newRewards: readonly (number | null)[],
): StepRewards[] {
  if (!steps || steps.length === 0) return [];
  const sums = new Map<number, { oldN: number; oldSum: number; newN: number; newSum: number; n: number }>();
  rollouts.forEach((r, i) => {
    const step = steps[i];
    if (step === null || step === undefined || !r.in_signal) return;
    let s = sums.get(step);
    if (!s) {
      s = { oldN: 0, oldSum: 0, newN: 0, newSum: 0, n: 0 };
      sums.set(step, s);
    }
    s.n++;
    if (r.reward !== null) {
      s.oldN++;
      s.oldSum += r.reward;
    }
    const now = newRewards[i];
    if (now !== null && now !== undefined) {
      s.newN++;
      s.newSum += now;
    }
  });
  return [...sums]
    .sort(([a], [b]) => a - b)
    .map(([step, s]) => ({
      step,
      oldMean: s.oldN === 0 ? null : s.oldSum / s.oldN,
      newMean: s.newN === 0 ? null : s.newSum / s.newN,
      n: s.n,
    }));
}
