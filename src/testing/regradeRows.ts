import type { RegradeRow } from '../format';

/** One regrade row: rollout r1 at a.jsonl line 1, graded fail again by `g`; a test overrides what it is about. */
export const buildRegradeRow = (overrides: Partial<RegradeRow> = {}): RegradeRow => ({
  file: 'a.jsonl',
  line: 1,
  rollout_id: 'r1',
  attempt_id: null,
  task_id: 't',
  old_reward: 0,
  old_verdict: 'fail',
  new_reward: 0,
  new_verdict: 'fail',
  error_kind: null,
  error: null,
  details: null,
  duration_ms: 1,
  grader: 'g',
  ...overrides,
});
