import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { type Grading, type Rollout, v1Schema } from '../format';
import { CHAT_TEMPLATE_INFO } from './chat/chatml';
import { TOKENIZER_INFO, type Tokenizer } from './chat/tokenizer';
import { Sandbox } from './environment/sandbox';
import { type Fault, FaultInjector } from './faults';
import { grade, graderInfo } from './grader/grader';
import { COST_MS, SimClock } from './harness/clock';
import type { Compaction } from './harness/context';
import { type Budget, runHarness } from './harness/harness';
import type { Policy } from './policy/policy';
import { mulberry32 } from './policy/rng';
import { buggyReward, type RewardBug } from './rewardBugs';
import type { Task } from './tasks';
import { packRetokenized, packTraining } from './trainer/pack';

/**
 * The demo's terminal-reward contract (the design article's): a submission is worth 1 when the private
 * verdict is pass and 0 when it is fail; running out of budget or an invalid call is worth 0. Each record
 * states the terms in `task.contract`, which is where the audit reads them from.
 */
const REWARD = { pass: 1, fail: 0, budgetExhausted: 0, invalidCall: 0 } as const;
const REWARD_TERMS = `Reward: pass → ${REWARD.pass}, fail → ${REWARD.fail}, budget exhausted → ${REWARD.budgetExhausted}.`;

/** Everything that defines one rollout; the same plan always gives the same record. */
export interface RolloutPlan {
  task: Task;
  rolloutId: string;
  attemptId: string;
  groupId: string;
  policy: Policy;
  seed: number;
  startMs: number;
  budget: Budget;
  steer?: readonly string[];
  compaction?: Compaction;
  faults?: readonly Fault[];
  /** A training run's x axis (§2 `training_step`): the update count of the weights that sample this rollout. */
  trainingStep?: number;
  /**
   * The trainer, where it is not the sampler's policy replaying the sampled ids: its own policy (the same
   * weights on the reference engine, when the sampler ran on another) and whether it re-tokenizes the text.
   */
  trainer?: { policy?: Policy; retokenize?: boolean };
  /** Scanner cases only: the harness turns infrastructure failures into tool errors (harness.ts). */
  misclassifyInfra?: boolean;
  /** Scanner cases only: a wrong reward function in place of the contract's (rewardBugs.ts). */
  rewardBug?: RewardBug;
  /** Kept on the record as an extra field, so a reader knows what the rollout was made to show. */
  scenario?: { name: string; steered: 'all' | 'prefix' | 'none'; note: string };
}

export const DEMO_BUDGET: Budget = { max_actions: 10, max_seconds: 600 };

/** The environment image: the task repo's digest, the runner and the Python that runs them. */
function environmentVersion(task: Task, python: string): string {
  const h = createHash('sha256');
  for (const [name, text] of task.files) h.update(`${name}\0${text}\0`);
  h.update(readFileSync(new URL('./testrunner/runner.py', import.meta.url)));
  return `repo-sha256:${h.digest('hex').slice(0, 16)}+python${python}`;
}

/** What every rollout shares: the tokenizer and the Python version of the environment image. */
export interface DemoDeps {
  tok: Tokenizer;
  python: string;
}

/** Plays one rollout through the four roles and assembles the record the trainer would receive. */
export async function playRollout(plan: RolloutPlan, { tok, python }: DemoDeps): Promise<Rollout> {
  const clock = new SimClock(plan.startMs);
  const started_at = clock.iso();
  const sandbox = await Sandbox.create(plan.task);
  const cancel = new AbortController();
  let harness: Awaited<ReturnType<typeof runHarness>>;
  try {
    harness = await runHarness(
      {
        task: plan.task,
        policy: plan.policy,
        rng: mulberry32(plan.seed),
        budget: plan.budget,
        clock,
        sandbox,
        faults: new FaultInjector(plan.faults ?? [], sandbox, cancel),
        cancel: cancel.signal,
        steer: plan.steer,
        compaction: plan.compaction,
        misclassifyInfra: plan.misclassifyInfra,
      },
      tok,
    );
  } finally {
    await sandbox.dispose();
  }

  const secondsUsed = (clock.now - plan.startMs) / 1000;
  let termination: string = harness.termination;
  let reward: number | null = null;
  let grading: Grading | undefined;
  if (harness.termination === 'finished') {
    grading = await grade(plan.task, harness.artifact ?? '');
    clock.advance(COST_MS.grading);
    // A grader that cannot judge the artifact is an infrastructure problem, not a verdict on the policy.
    if (grading.verdict === 'error') termination = 'infra_failure';
    else if (plan.rewardBug) reward = buggyReward(plan.rewardBug, grading.verdict === 'pass', harness.steps);
    else reward = grading.verdict === 'pass' ? REWARD.pass : REWARD.fail;
  } else if (harness.termination === 'budget_exhausted') {
    reward = REWARD.budgetExhausted;
  } else if (harness.termination === 'invalid_call') {
    reward = REWARD.invalidCall;
  }
  const inSignal = reward !== null;

  const record: Rollout = {
    task_id: plan.task.id,
    rollout_id: plan.rolloutId,
    attempt_id: plan.attemptId,
    group_id: plan.groupId,
    policy_version: plan.policy.version,
    ...(plan.trainingStep !== undefined ? { training_step: plan.trainingStep } : {}),
    environment_version: environmentVersion(plan.task, python),
    tokenizer: { ...TOKENIZER_INFO },
    chat_template: { ...CHAT_TEMPLATE_INFO },
    grader: graderInfo(plan.task),
    sampling: { ...plan.policy.sampling, seed: plan.seed },
    budget: {
      ...plan.budget,
      actions_used: harness.actionsUsed,
      seconds_used: secondsUsed,
    },
    task: { prompt: plan.task.prompt, contract: `${plan.task.contract} ${REWARD_TERMS}` },
    ...(plan.scenario ? { scenario: plan.scenario } : {}),
    ...(harness.detail ? { termination_detail: harness.detail } : {}),
    started_at,
    ended_at: clock.iso(),
    segments: harness.segments,
    steps: harness.steps,
    termination,
    reward,
  };
  if (grading) record.grading = grading;
  // Excluded rollouts (infra_failure, cancelled) never reach the trainer, so they carry no training record.
  if (inSignal) {
    const trainer = plan.trainer?.policy ?? plan.policy;
    const score = (c: readonly number[], g: readonly number[]) => trainer.score(c, g);
    record.training = plan.trainer?.retokenize ? packRetokenized(harness.transcript, tok, score) : packTraining(harness.transcript, score);
  }
  const checked = v1Schema().rollout.safeParse(record);
  if (!checked.success) throw new Error(`${plan.rolloutId}: the record does not match the format: ${checked.error.message}`);
  return record;
}
