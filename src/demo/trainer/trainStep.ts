import { groupAdvantages, groupIdOf, terminationInfo } from '../../analysis';
import type { Rollout } from '../../format';
import { PARAM_COUNT, type PolicyParams } from '../policy/params';
import type { Policy } from '../policy/policy';
import type { Adam } from './adam';
import { clippedTerm, tokenWeight } from './objective';
import { trainedCalls } from './positions';

export interface TrainStepOptions {
  /** This update's index: the weights `policy` holds are the result of `step` updates. */
  step: number;
  /** Dr. GRPO: advantages r - mean (no std division) and a constant token normaliser. */
  drGrpo: boolean;
  /** Version name of the weights this update produces. */
  nextVersion: string;
}

export interface TrainStepResult {
  /** The batch, in order; each trained rollout's `training` now holds the trainer's log-probs and its update. */
  records: Rollout[];
  params: PolicyParams;
  /** J at the weights before the update. */
  objective: number;
  trainedRollouts: number;
  trainedTokens: number;
  clippedTokens: number;
}

/** The advantage each record of the batch gets in its group (null: not in the signal, never trained). */
export function batchAdvantages(batch: readonly Rollout[], drGrpo: boolean): (number | null)[] {
  const groups = new Map<string, number[]>();
  batch.forEach((r, i) => {
    const id = groupIdOf(r);
    groups.set(id, [...(groups.get(id) ?? []), i]);
  });
  const out: (number | null)[] = batch.map(() => null);
  for (const indices of groups.values()) {
    const members = indices.map((i) => {
      const r = batch[i] as Rollout;
      return { inSignal: terminationInfo(r.termination).inSignal, reward: r.reward ?? null };
    });
    groupAdvantages(members, !drGrpo).perMember.forEach((a, k) => {
      out[indices[k] as number] = a;
    });
  }
  return out;
}

export interface Surrogate {
  /** The batch, in order; each trained rollout's `training` holds the trainer's log-probs and its update. */
  records: Rollout[];
  /** J at the trainer's weights. */
  objective: number;
  /** dJ / dtheta, exact. */
  grad: number[];
  trainedRollouts: number;
  trainedTokens: number;
  clippedTokens: number;
}

/**
 * The GRPO objective of one batch at the trainer's weights, and its gradient. Group-relative
 * advantages come from the analysis (the numbers lint reports); a rollout without one (excluded:
 * infrastructure failure, cancelled) is never touched. Every position under the loss mask is scored by
 * `policy` and enters J = (1 / rollouts) * sum_i w_i * sum_t min(r_t A_i, clip(r_t, 1 - eps, 1 + eps) A_i),
 * with r_t = exp(logp_t - old_logprob_t) and w_i from `tokenWeight`.
 */
export function surrogate(batch: readonly Rollout[], policy: Policy, opts: Pick<TrainStepOptions, 'step' | 'drGrpo'>): Surrogate {
  const advantages = batchAdvantages(batch, opts.drGrpo);
  const trainable = batch.filter((r, i) => advantages[i] !== null && r.training).length;
  const grad = new Array<number>(PARAM_COUNT).fill(0);
  let objective = 0;
  let trainedTokens = 0;
  let clippedTokens = 0;
  const records = batch.map((record, i) => {
    const advantage = advantages[i];
    const training = record.training;
    if (advantage === null || advantage === undefined || !training) return record;
    const calls = trainedCalls(record, training);
    const tokens = calls.reduce((n, c) => n + c.trained.length, 0);
    const w = tokenWeight(tokens, opts.drGrpo) / trainable;
    const logprobs: (number | null)[] = training.sequence_ids.map(() => null);
    let clipped = 0;
    for (const call of calls) {
      const scored = policy.scoreWithGrad(call.context, call.tokens);
      if (!scored) throw new Error(`${record.rollout_id}: the trainer's policy gives segment ${call.segment} probability 0`);
      for (const t of call.trained) {
        const logp = scored.logprobs[t.index] as number;
        const term = clippedTerm(logp, t.old, advantage);
        logprobs[t.position] = logp;
        objective += w * term.value;
        if (term.clipped) clipped++;
        const g = scored.grads[t.index] ?? [];
        for (let f = 0; f < PARAM_COUNT; f++) grad[f] = (grad[f] ?? 0) + w * term.dLogp * (g[f] ?? 0);
      }
    }
    trainedTokens += tokens;
    clippedTokens += clipped;
    const update = { step: opts.step, policy_version: policy.version, advantage, tokens, clipped };
    return { ...record, training: { ...training, logprobs, update } };
  });
  return { records, objective, grad, trainedRollouts: trainable, trainedTokens, clippedTokens };
}

/** One update: the surrogate's gradient, one optimiser step up it. */
export function trainStep(batch: readonly Rollout[], policy: Policy, optimizer: Adam, opts: TrainStepOptions): TrainStepResult {
  const { grad, ...rest } = surrogate(batch, policy, opts);
  return { ...rest, params: { version: opts.nextVersion, theta: optimizer.step(policy.params.theta, grad) } };
}
