import type { FindingCode, Severity } from './types';

export interface FindingInfo {
  severity: Severity;
  /** One line a person can read. */
  title: string;
  /** A finding about a GRPO group as a whole (reported on the group, reaching each of its rollouts), not one rollout. */
  group: boolean;
}

/** Severity, a one-line explanation and the scope of each finding code (shared/trajectory-format.md §7). */
export const FINDING_INFO: Record<FindingCode, FindingInfo> = {
  E_PARSE: { severity: 'error', title: 'The line is not a JSON object', group: false },
  E_SCHEMA: { severity: 'error', title: 'A required field is missing or has the wrong type', group: false },
  E_LOGPROB_LENGTH: { severity: 'error', title: 'old_logprobs and generated_ids differ in length', group: false },
  E_LOGPROB_RANGE: { severity: 'error', title: 'A log-probability is above 0', group: false },
  E_MASK_LENGTH: { severity: 'error', title: 'loss_mask and generated_ids differ in length', group: false },
  E_TOKEN_TEXT_LENGTH: { severity: 'error', title: 'Decoded token strings and ids differ in length', group: false },
  E_EXCLUDED_HAS_REWARD: { severity: 'error', title: 'An excluded rollout (infra failure, cancelled) carries a reward', group: false },
  E_REWARD_MISSING: { severity: 'error', title: 'A rollout in the policy signal has no reward', group: false },
  E_DUPLICATE_EXECUTION: { severity: 'error', title: 'One tool call was executed more than once', group: false },
  E_DUPLICATE_ROLLOUT: { severity: 'error', title: 'The same rollout and attempt appear more than once', group: false },
  E_TRAINING_CONTEXT: {
    severity: 'error',
    title: 'The trainer scores tokens under a context the model never saw',
    group: false,
  },
  E_TRAINING_MASK: { severity: 'error', title: 'The training loss mask covers a token the model did not generate', group: false },
  W_UNKNOWN_TERMINATION: { severity: 'warning', title: 'Unknown termination: left out of the policy signal', group: false },
  W_CONTEXT_REWRITTEN: { severity: 'warning', title: 'Earlier context was dropped or changed (compacted, re-tokenized, …)', group: false },
  W_ORPHAN_CALL: { severity: 'warning', title: 'A tool call without its step, or a step without its generation', group: false },
  W_ACTION_AFTER_FINISH: { severity: 'warning', title: 'A step follows finish', group: false },
  W_GROUP_MIXED_POLICY: { severity: 'warning', title: 'The group mixes policy versions', group: true },
  W_GROUP_MIXED_SAMPLING: { severity: 'warning', title: 'The group mixes sampling configurations', group: true },
  W_GROUP_MIXED_ENV: { severity: 'warning', title: 'The group mixes environment versions', group: true },
  W_ZERO_VARIANCE_GROUP: { severity: 'warning', title: 'All rewards in the group are equal: no learning signal', group: true },
  W_MISSING_METADATA: { severity: 'warning', title: 'Metadata needed to replay or audit is missing', group: false },
  W_SCAN: { severity: 'warning', title: 'A scanner rule found a behaviour to look at (docs/scanners.md)', group: false },
  E_SCAN: { severity: 'error', title: 'A scanner rule found a behaviour that must not enter training (docs/scanners.md)', group: false },
  W_READ_BY_SHAPE: {
    severity: 'warning',
    title: 'Read by shape: no adapter knows this tool, its fields were inferred',
    group: false,
  },
  W_HIT_MAX_TOKENS: { severity: 'warning', title: 'The generation hit max_new_tokens: it was cut', group: false },
  W_LOGPROB_DRIFT: { severity: 'warning', title: 'Trainer and sampler disagree about the behaviour policy', group: false },
  W_PLACEHOLDER_LOGPROBS: {
    severity: 'warning',
    title: 'The behaviour log-probabilities look like placeholders (all 0, or all one value)',
    group: false,
  },
};

/** The group findings, in §7 order. */
export const GROUP_FINDING_CODES: readonly FindingCode[] = (Object.keys(FINDING_INFO) as FindingCode[]).filter(
  (c) => FINDING_INFO[c].group,
);
