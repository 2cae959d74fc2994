import type { Tokenizer } from './chat/tokenizer';
import { EPOCH_MS } from './harness/clock';
import { paramsFromTable } from './policy/params';
import { DEMO_SAMPLING, Policy } from './policy/policy';
import { deriveSeed } from './policy/rng';
import { WEIGHTS_V1, WEIGHTS_V2 } from './policy/weights';
import { DEMO_BUDGET, type RolloutPlan } from './rollout';
import { SCENARIOS } from './scenarios';
import { TASKS, taskById } from './tasks';

export interface DemoOptions {
  /** GRPO groups; group g samples task g mod 4 under v-1 (even g) or v-2 (odd g). */
  groups: number;
  perGroup: number;
  seed: number;
}

export const DEFAULT_DEMO_OPTIONS: DemoOptions = { groups: 4, perGroup: 8, seed: 7 };

const MINUTE = 60_000;

/** Every rollout of the demo set, in file order: the scripted scenarios, then the GRPO groups. */
export function demoPlans(opts: DemoOptions, tok: Tokenizer): RolloutPlan[] {
  const v1 = new Policy(paramsFromTable(WEIGHTS_V1), DEMO_SAMPLING, tok);
  const v2 = new Policy(paramsFromTable(WEIGHTS_V2), DEMO_SAMPLING, tok);
  const article = taskById('binary-search-001');
  const plans: RolloutPlan[] = SCENARIOS.map((s, i) => ({
    task: article,
    rolloutId: s.id,
    attemptId: s.attempt ?? 'a-1',
    groupId: `scripted:${article.id}@${v1.version}`,
    policy: s.engine ? v1.onEngine(s.engine) : v1,
    ...(s.engine || s.trainerRetokenizes ? { trainer: { policy: v1, retokenize: s.trainerRetokenizes === true } } : {}),
    // A re-run keeps its rollout's seed: the same rollout, another attempt.
    seed: deriveSeed(opts.seed, s.id),
    startMs: EPOCH_MS + i * 10 * MINUTE,
    budget: DEMO_BUDGET,
    steer: s.steer,
    compaction: s.compaction,
    faults: s.faults,
    scenario: { name: s.name, steered: s.steered, note: s.note },
  }));
  for (let g = 0; g < opts.groups; g++) {
    const task = TASKS[g % TASKS.length] ?? article;
    const policy = g % 2 === 0 ? v1 : v2;
    for (let k = 0; k < opts.perGroup; k++) {
      const rolloutId = `r-g${g + 1}-${String(k + 1).padStart(2, '0')}`;
      plans.push({
        task,
        rolloutId,
        attemptId: 'a-1',
        groupId: `g${g + 1}:${task.id}@${policy.version}`,
        policy,
        seed: deriveSeed(opts.seed, rolloutId),
        // The rollouts of a group are sampled side by side.
        startMs: EPOCH_MS + (3 * 60 + g * 30) * MINUTE,
        budget: DEMO_BUDGET,
      });
    }
  }
  return plans;
}
