import type { Step } from '../format';

/**
 * Deliberately wrong reward functions, for the scanner cases (scannerCases.ts) only; the demo file and the
 * training run never use them. Each is a bug real reward pipelines have had, and each is what a default
 * scanner exists to catch: the reward no longer follows the private verdict that `task.contract` names.
 *
 * - `public-tests`: the reward is read from the last public dev-test run the policy saw (1 when every test
 *   passed), not from the grader's private verdict. A change that fools the dev tests is rewarded
 *   (rewarded-failed-verdict).
 * - `inverted`: the verdict's sign is flipped, pass → 0 and fail → 1 (unrewarded-passed-verdict on a pass).
 */
export type RewardBug = 'public-tests' | 'inverted';

/** The reward a buggy reward function gives a finished rollout whose private verdict passed or failed. */
export function buggyReward(bug: RewardBug, passed: boolean, steps: readonly Step[]): number {
  if (bug === 'inverted') return passed ? 0 : 1;
  const lastRun = steps.findLast((s) => s.tool === 'run_tests' && s.tests !== undefined);
  const t = lastRun?.tests;
  const green = t !== undefined && (t.passed?.length ?? 0) > 0 && (t.failed?.length ?? 0) + (t.over_budget?.length ?? 0) === 0;
  return green ? 1 : 0;
}
