import type { Fault } from './faults';
import type { Compaction } from './harness/context';
import type { Engine } from './policy/policy';

/**
 * Scripted rollouts, each made to show one thing the inspector must handle. A script fixes which
 * move the policy takes at each turn (all of them, or a prefix after which it samples freely);
 * the tokens and their log-probabilities still come from the policy's real distribution, and the
 * tools, tests and grader run for real. All run binary-search-001 under policy v-1.
 */
export interface Scenario {
  id: string;
  name: string;
  /** 'all': every move scripted; 'prefix': the first moves scripted, the rest sampled. */
  steered: 'all' | 'prefix';
  steer: readonly string[];
  faults?: readonly Fault[];
  compaction?: Compaction;
  /** The sampler's inference engine, when it is not the trainer's reference computation. */
  engine?: Engine;
  /** The trainer re-tokenizes the transcript's text instead of replaying the sampled ids. */
  trainerRetokenizes?: boolean;
  /** Attempt id; a re-run after an infrastructure failure reuses the rollout id and seed. */
  attempt?: string;
  note: string;
}

/** The design article's six steps. */
export const ARTICLE_STEPS = ['read', 'fix:0', 'run_tests', 'fix:1', 'run_tests', 'finish'] as const;

/**
 * Compaction threshold for r-compacted, in tokens. The article's context passes it once, just
 * before the fourth generation, so exactly one earlier output is dropped (scenarios.test.ts checks it).
 */
const COMPACTION_AT_TOKENS = 700;

export const SCENARIOS: readonly Scenario[] = [
  {
    id: 'r-article',
    name: 'article',
    steered: 'all',
    steer: ARTICLE_STEPS,
    note: "The design article's trajectory: read, fix low, tests (find 6 passes, find 0 over budget), fix high, tests pass, finish; reward 1.",
  },
  {
    id: 'r-regression',
    name: 'regression',
    steered: 'all',
    steer: ['read', 'fix:0', 'fix:1', 'run_tests', 'revert:fix:0', 'run_tests', 'fix:0', 'run_tests', 'finish'],
    note: 'Both fixes pass the tests, then the low fix is reverted (a revert of step 2) and find 6 goes over budget (a test regression); fixed again, finished.',
  },
  {
    id: 'r-budget',
    name: 'budget_exhausted',
    steered: 'all',
    steer: ['read', 'run_tests', 'read_tests', 'fix:0', 'run_tests', 'read', 'run_tests', 'fix:1', 'read', 'run_tests'],
    note: 'Ten actions spent re-reading and re-testing; the tests finally pass but the action budget runs out before finish. Reward 0 by the task contract.',
  },
  {
    id: 'r-invalid',
    name: 'invalid_call',
    steered: 'all',
    steer: ['read', 'fix:0', 'invalid'],
    note: 'The policy calls run_shell, a tool the harness does not offer; the call is rejected unexecuted and the rollout ends. Reward 0.',
  },
  {
    id: 'r-infra',
    name: 'infra_failure',
    steered: 'prefix',
    steer: ['read', 'fix:0', 'run_tests'],
    faults: [{ kind: 'kill-test-process', call: 3 }],
    attempt: 'a-1',
    note: 'The test process is SIGKILLed by the infrastructure during the first run_tests. Excluded from the signal, reward null; re-run as attempt a-2.',
  },
  {
    id: 'r-infra',
    name: 'infra_retry',
    steered: 'prefix',
    steer: ['read', 'fix:0', 'run_tests'],
    attempt: 'a-2',
    note: 'Attempt a-2 of r-infra: same rollout, same seed, a fresh sandbox and no fault; sampled freely after the scripted prefix.',
  },
  {
    id: 'r-sandbox-lost',
    name: 'infra_failure',
    steered: 'all',
    steer: ['read', 'fix:0', 'fix:1'],
    faults: [{ kind: 'remove-sandbox', call: 3 }],
    note: 'The sandbox directory is deleted before the third call; the harness reports an infrastructure failure, not a tool error. Reward null.',
  },
  {
    id: 'r-cancelled',
    name: 'cancelled',
    steered: 'all',
    steer: ['read', 'fix:0', 'run_tests'],
    faults: [{ kind: 'cancel-during-call', call: 3 }],
    note: 'An operator cancels the rollout while its tests run; the test process is killed. Excluded from the signal, reward null.',
  },
  {
    id: 'r-compacted',
    name: 'compacted_context',
    steered: 'all',
    steer: ARTICLE_STEPS,
    compaction: { maxContextTokens: COMPACTION_AT_TOKENS },
    note: 'Past 700 tokens the harness compacts the context: before the fourth generation the stale read_file output becomes "[output omitted]". The trainer packs the full transcript anyway (E_TRAINING_CONTEXT).',
  },
  {
    id: 'r-retry',
    name: 'transport_retry',
    steered: 'prefix',
    steer: ['read', 'fix:0'],
    faults: [{ kind: 'drop-response', call: 2 }],
    note: 'The response to the low fix is lost in transport; the harness retries with the same call id and the sandbox returns the stored result (attempts 2, executions 1). Sampled after the prefix.',
  },
  {
    id: 'r-retokenized',
    name: 'trainer_retokenizes',
    steered: 'all',
    steer: ARTICLE_STEPS,
    engine: { tokenization: 'per-field', weights: 'float64' },
    trainerRetokenizes: true,
    note: "The article's six steps sampled by a JSON-grammar decoder that emits punctuation and strings as separate tokens; the trainer re-tokenizes the transcript from its text, so the same text becomes other ids and the trained sequence is not the sampled one (E_TRAINING_CONTEXT).",
  },
  {
    id: 'r-bf16-sampler',
    name: 'sampler_precision',
    steered: 'all',
    steer: ARTICLE_STEPS,
    engine: { tokenization: 'whole', weights: 'bfloat16' },
    note: "The article's six steps sampled by an engine that holds the move weights in bfloat16; the trainer scores in float64, so at every token where the policy has a choice the two log-probabilities differ slightly (§10 mismatch, no W_LOGPROB_DRIFT).",
  },
];
