import type { Rollout } from '../format';
import { qwen3Tokenizer } from './chat/tokenizer';
import type { Fault } from './faults';
import { playAll, pythonVersion } from './generate';
import { EPOCH_MS } from './harness/clock';
import { type PolicyParams, paramsFromTable } from './policy/params';
import { DEMO_SAMPLING, Policy } from './policy/policy';
import { deriveSeed, mulberry32 } from './policy/rng';
import { WEIGHTS_V1 } from './policy/weights';
import { DEMO_BUDGET, type RolloutPlan } from './rollout';
import { TASKS } from './tasks';
import { Adam } from './trainer/adam';
import { trainStep } from './trainer/trainStep';

export interface TrainRunOptions {
  steps: number;
  seed: number;
  /** The sampler runs this many updates behind the trainer (0: on-policy). */
  async: number;
  drGrpo: boolean;
  /** Rollouts per GRPO group; every step has one group per task. */
  perGroup: number;
}

export const DEFAULT_TRAIN_OPTIONS: TrainRunOptions = { steps: 24, seed: 1, async: 0, drGrpo: false, perGroup: 4 };

/** One training step's output: the rollouts the trainer consumed in update `step`, as written to step_NNNN. */
export interface TrainedBatch {
  step: number;
  records: Rollout[];
  /** What the update did, for the progress line. */
  rewardMean: number | null;
  objective: number;
  clippedTokens: number;
  trainedTokens: number;
}

/** Simulated time between the starts of two steps' sampling: longer than a rollout's 600 s budget. */
const STEP_MS = 15 * 60_000;
/** Probability that a rollout's test process is killed by the infrastructure (an OOM kill, a node drain). */
const INFRA_FAULT_RATE = 1 / 24;

function versionName(updates: number): string {
  return `v-${String(updates).padStart(4, '0')}`;
}

/** The batch sampled for update `step` under weights `behaviour` (the result of `version` updates). */
function batchPlans(opts: TrainRunOptions, step: number, behaviour: Policy, version: number): RolloutPlan[] {
  const s = String(step).padStart(4, '0');
  return TASKS.flatMap((task, t) =>
    Array.from({ length: opts.perGroup }, (_, k): RolloutPlan => {
      const rolloutId = `r-s${s}-g${t + 1}-${String(k + 1).padStart(2, '0')}`;
      const faults: Fault[] =
        mulberry32(deriveSeed(opts.seed, `${rolloutId}:infra`))() < INFRA_FAULT_RATE ? [{ kind: 'kill-test-process', call: 3 }] : [];
      return {
        task,
        rolloutId,
        attemptId: 'a-1',
        groupId: `s${s}:${task.id}@${behaviour.version}`,
        policy: behaviour,
        seed: deriveSeed(opts.seed, rolloutId),
        startMs: EPOCH_MS + step * STEP_MS,
        budget: DEMO_BUDGET,
        trainingStep: version,
        faults,
      };
    }),
  );
}

/**
 * A real GRPO run over the demo's four roles. Update n trains on batch n with the trainer's weights
 * theta_n (theta_0: the v-1 table). Batch n is sampled with theta_{max(0, n - async)}: with async 0 the
 * sampler waits for every update (on-policy, trainer log-probs equal old_logprobs); with async K it runs
 * K updates behind, so the two differ by K updates of real drift, which the clipped ratio corrects.
 * Yields each batch once the trainer has consumed it. Same options, same bytes.
 */
export async function* trainRun(opts: TrainRunOptions): AsyncGenerator<TrainedBatch> {
  const tok = qwen3Tokenizer();
  const deps = { tok, python: pythonVersion() };
  const initial = paramsFromTable(WEIGHTS_V1);
  const history: PolicyParams[] = [{ ...initial, version: versionName(0) }];
  const base = new Policy(history[0] as PolicyParams, DEMO_SAMPLING, tok);
  const optimizer = new Adam();
  for (let step = 0; step < opts.steps; step++) {
    const behind = Math.max(0, step - opts.async);
    const sampler = base.withParams(history[behind] as PolicyParams);
    const batch = await playAll(batchPlans(opts, step, sampler, behind), deps);
    const trainer = base.withParams(history[step] as PolicyParams);
    const result = trainStep(batch, trainer, optimizer, { step, drGrpo: opts.drGrpo, nextVersion: versionName(step + 1) });
    history.push(result.params);
    const rewards = batch.flatMap((r) => (r.reward === null || r.reward === undefined ? [] : [r.reward]));
    yield {
      step,
      records: result.records,
      rewardMean: rewards.length ? rewards.reduce((a, b) => a + b, 0) / rewards.length : null,
      objective: result.objective,
      clippedTokens: result.clippedTokens,
      trainedTokens: result.trainedTokens,
    };
  }
}
