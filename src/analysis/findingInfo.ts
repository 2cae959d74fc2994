import type { FindingCode, Severity } from './types';

/** Severity and a one-line explanation for each finding code (shared/trajectory-format.md §7). */
export const FINDING_INFO: Record<FindingCode, { severity: Severity; title: string }> = {
  E_PARSE: { severity: 'error', title: 'The line is not a JSON object' },
  E_SCHEMA: { severity: 'error', title: 'A required field is missing or has the wrong type' },
  E_LOGPROB_LENGTH: { severity: 'error', title: 'old_logprobs and generated_ids differ in length' },
  E_LOGPROB_RANGE: { severity: 'error', title: 'A log-probability is above 0' },
  E_MASK_LENGTH: { severity: 'error', title: 'loss_mask and generated_ids differ in length' },
  E_TOKEN_TEXT_LENGTH: { severity: 'error', title: 'Decoded token strings and ids differ in length' },
  E_EXCLUDED_HAS_REWARD: { severity: 'error', title: 'An excluded rollout (infra failure, cancelled) carries a reward' },
  E_REWARD_MISSING: { severity: 'error', title: 'A rollout in the policy signal has no reward' },
  E_DUPLICATE_EXECUTION: { severity: 'error', title: 'One tool call was executed more than once' },
  E_DUPLICATE_ROLLOUT: { severity: 'error', title: 'The same rollout and attempt appear more than once' },
  E_TRAINING_CONTEXT: {
    severity: 'error',
    title: 'The trainer scores tokens under a context the model never saw',
  },
  E_TRAINING_MASK: { severity: 'error', title: 'The training loss mask covers a token the model did not generate' },
  W_UNKNOWN_TERMINATION: { severity: 'warning', title: 'Unknown termination: left out of the policy signal' },
  W_CONTEXT_REWRITTEN: { severity: 'warning', title: 'Earlier context was dropped or changed (compaction)' },
  W_ORPHAN_CALL: { severity: 'warning', title: 'A tool call without its step, or a step without its generation' },
  W_ACTION_AFTER_FINISH: { severity: 'warning', title: 'A step follows finish' },
  W_GROUP_MIXED_POLICY: { severity: 'warning', title: 'The group mixes policy versions' },
  W_GROUP_MIXED_SAMPLING: { severity: 'warning', title: 'The group mixes sampling configurations' },
  W_GROUP_MIXED_ENV: { severity: 'warning', title: 'The group mixes environment versions' },
  W_ZERO_VARIANCE_GROUP: { severity: 'warning', title: 'All rewards in the group are equal: no learning signal' },
  W_MISSING_METADATA: { severity: 'warning', title: 'Metadata needed to replay or audit is missing' },
  W_HIT_MAX_TOKENS: { severity: 'warning', title: 'The generation hit max_new_tokens: it was cut' },
  W_LOGPROB_DRIFT: { severity: 'warning', title: 'Trainer and sampler disagree about the behaviour policy' },
};
