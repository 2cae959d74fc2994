import type { FailureSignature } from './failureModes/signature';
import type { Mismatch } from './mismatch';

/** Shapes of analysis results. They mirror `trajscope lint --json` (shared/trajectory-format.md §8). */

export type Severity = 'error' | 'warning';

export type FindingCode =
  | 'E_PARSE'
  | 'E_SCHEMA'
  | 'E_LOGPROB_LENGTH'
  | 'E_LOGPROB_RANGE'
  | 'E_MASK_LENGTH'
  | 'E_TOKEN_TEXT_LENGTH'
  | 'E_EXCLUDED_HAS_REWARD'
  | 'E_REWARD_MISSING'
  | 'E_DUPLICATE_EXECUTION'
  | 'E_DUPLICATE_ROLLOUT'
  | 'E_TRAINING_CONTEXT'
  | 'E_TRAINING_MASK'
  | 'W_UNKNOWN_TERMINATION'
  | 'W_CONTEXT_REWRITTEN'
  | 'W_ORPHAN_CALL'
  | 'W_ACTION_AFTER_FINISH'
  | 'W_GROUP_MIXED_POLICY'
  | 'W_GROUP_MIXED_SAMPLING'
  | 'W_GROUP_MIXED_ENV'
  | 'W_ZERO_VARIANCE_GROUP'
  | 'W_MISSING_METADATA'
  | 'W_HIT_MAX_TOKENS'
  | 'W_LOGPROB_DRIFT'
  | 'W_PLACEHOLDER_LOGPROBS'
  | 'W_READ_BY_SHAPE'
  | 'W_SCAN'
  | 'E_SCAN';

/** One lint result. `segment` is the 0-based index into `segments`; `step` is 1-based, as steps are numbered. */
export interface Finding {
  code: FindingCode;
  severity: Severity;
  segment: number | null;
  step: number | null;
  message: string;
}

export type Regression =
  | { step: number; kind: 'revert'; of_step: number }
  | { step: number; kind: 'test'; tests: string[] }
  | { step: number; kind: 'flaky'; tests: string[] };

export interface RolloutSummary {
  file: string;
  line: number;
  task_id: string;
  rollout_id: string;
  attempt_id: string | null;
  group_id: string;
  termination: string;
  in_signal: boolean;
  /** Present (true) when the termination is `unknown` and the run was read with `unknownAsFinished`. */
  counted_as_finished?: true;
  reward: number | null;
  steps: number;
  regressions: Regression[];
  /** Read-only: a huge rollout's are packed columns on the page, read through a Proxy (docs/adr/0019). */
  findings: readonly Finding[];
  /** §10's training-inference mismatch: present exactly when the record has a `training` record. */
  mismatch?: Mismatch;
  /** Present when the rollout failed (excluded, or rewarded below 1): its failure signature (docs/failure-modes.md). */
  failure?: FailureSignature;
  /**
   * Present for a row read from a run index (§9), which keeps counts and finding codes, not the details:
   * `regressions` is then empty and `findings` holds one entry per code; the record has the rest.
   */
  indexed?: { regressions: number; errors: number; warnings: number };
}

export interface GroupSummary {
  group_id: string;
  rollouts: number;
  in_signal: number;
  /** Rollouts whose termination is `unknown` (no status recorded): why a group may have nothing in its signal. */
  unknown_termination: number;
  mean: number | null;
  std: number | null;
  advantages: Record<string, number>;
  findings: Finding[];
}

export interface LintReport {
  summary: { lines: number; rollouts: number; errors: number; warnings: number };
  parse_errors: { file: string; line: number; code: 'E_PARSE' | 'E_SCHEMA'; message: string }[];
  rollouts: RolloutSummary[];
  groups: GroupSummary[];
}
