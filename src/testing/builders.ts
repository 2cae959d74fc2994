/*
 * Typed builders for test data. Never imported by production code.
 * Each returns a record that is valid v1 and lints clean (apart from W_MISSING_METADATA when the
 * metadata is left out on purpose), so a test changes only the field it is about.
 */
import {
  FINDING_INFO,
  type Finding,
  type FindingCode,
  type GroupSummary,
  type RolloutSummary,
  rolloutFindings,
  terminationInfo,
} from '../analysis';
import type { IndexRow, Rollout, Segment, Step } from '../format';

/** The minimal record of shared/trajectory-format.md §2, verbatim. */
export const MINIMAL_RECORD_LINE =
  '{"task_id":"binary-search-001","rollout_id":"r-003","attempt_id":"a-001","policy_version":"v-012",' +
  '"environment_version":"image-and-repo-digest",' +
  '"segments":[{"input_ids":[101,202],"generated_ids":[303,404],"old_logprobs":[-0.7,-0.4],"tool_call_id":"c-001"}],' +
  '"termination":"finished","reward":1.0}';

export function buildSegment(overrides: Partial<Segment> = {}): Segment {
  return {
    input_ids: [1, 2, 3],
    generated_ids: [10, 11],
    old_logprobs: [-0.5, -0.25],
    tool_call_id: 'c-1',
    ...overrides,
  };
}

export function buildStep(overrides: Partial<Step> = {}): Step {
  return { tool_call_id: 'c-1', tool: 'read_file', args: { path: 'search.py' }, observation: { status: 'ok', text: '' }, ...overrides };
}

/** Metadata that silences W_MISSING_METADATA. */
export const FULL_METADATA = {
  tokenizer: { name: 'Qwen/Qwen3-0.6B', version: 't-1' },
  chat_template: { name: 'qwen3', version: 'ct-1' },
  grader: { name: 'private-tests', version: 'g-1' },
  sampling: { temperature: 1, top_p: 1, max_new_tokens: 512 },
} satisfies Partial<Rollout>;

export function buildRollout(overrides: Partial<Rollout> = {}): Rollout {
  return {
    task_id: 'task-1',
    rollout_id: 'r-1',
    attempt_id: 'a-1',
    policy_version: 'v-1',
    environment_version: 'env-1',
    ...FULL_METADATA,
    segments: [buildSegment()],
    termination: 'finished',
    reward: 1,
    ...overrides,
  };
}

/**
 * A chain of segments whose contexts grow by appending: segment i's input_ids is segment i-1's
 * input_ids + generated_ids + an observation token. One step per segment, numbered c-1, c-2, ...
 */
export function buildChain(tools: Array<Partial<Step> & { tool: string }>): Pick<Rollout, 'segments' | 'steps'> {
  const segments: Segment[] = [];
  const steps: Step[] = [];
  let context = [1, 2, 3];
  tools.forEach((t, i) => {
    const id = `c-${i + 1}`;
    const generated = [100 + 2 * i, 101 + 2 * i];
    segments.push(buildSegment({ input_ids: context, generated_ids: generated, old_logprobs: [-0.5, -0.5], tool_call_id: id }));
    steps.push(buildStep({ ...t, tool_call_id: id }));
    context = [...context, ...generated, 500 + i];
  });
  return { segments, steps };
}

export function toJsonl(records: unknown[]): string {
  return `${records.map((r) => (typeof r === 'string' ? r : JSON.stringify(r))).join('\n')}\n`;
}

/** A finding with its code's severity, about the whole rollout unless told where. */
export function buildFinding(code: FindingCode, overrides: Partial<Omit<Finding, 'code'>> = {}): Finding {
  return { code, severity: FINDING_INFO[code].severity, segment: null, step: null, message: '', ...overrides };
}

/** A run-list row: a clean, finished rollout with reward 1; `in_signal` follows the termination unless given. */
export function buildSummary(overrides: Partial<RolloutSummary> = {}): RolloutSummary {
  const termination = overrides.termination ?? 'finished';
  return {
    file: 'test.jsonl',
    line: 1,
    rollout_id: 'r-1',
    attempt_id: 'a-1',
    task_id: 'task-1',
    group_id: 'task-1@v-1',
    termination,
    in_signal: terminationInfo(termination).inSignal,
    reward: 1,
    steps: 0,
    regressions: [],
    findings: [],
    ...overrides,
  };
}

/** A run-index row (§9): a clean, finished rollout of step 0, line 1 of `step_0000.jsonl`. */
export function buildIndexRow(overrides: Partial<IndexRow> = {}): IndexRow {
  return {
    file: 'step_0000.jsonl',
    line: 1,
    offset: 0,
    length: 100,
    task_id: 'task-1',
    rollout_id: 'r-1',
    attempt_id: 'a-1',
    group_id: 'task-1@v-1',
    policy_version: 'v-1',
    training_step: 0,
    training_step_from: 'record',
    termination: 'finished',
    in_signal: true,
    reward: 1,
    source_format: 'v1',
    segments: 1,
    steps: 1,
    generated_tokens: 10,
    context_tokens: 10,
    trained_tokens: 10,
    regressions: 0,
    errors: 0,
    warnings: 0,
    finding_codes: [],
    truncated: false,
    mismatch_n: null,
    mismatch_mean_abs: null,
    mismatch_max_abs: null,
    mismatch_ratio_mean: null,
    mismatch_ratio_clip_frac: null,
    mismatch_kl_k3: null,
    started_at: null,
    ended_at: null,
    failure_mode: null,
    failure_features: null,
    ...overrides,
  };
}

/** A group's statistics, with group findings by code. */
export function buildGroup(
  group_id: string,
  overrides: Partial<Omit<GroupSummary, 'findings'>> & { codes?: FindingCode[] } = {},
): GroupSummary {
  const { codes = [], ...rest } = overrides;
  return {
    group_id,
    rollouts: 0,
    in_signal: 0,
    unknown_termination: 0,
    mean: null,
    std: null,
    advantages: {},
    findings: codes.map((c) => buildFinding(c)),
    ...rest,
  };
}

/**
 * Appending segments (one per tool) with a correct training record: the sequence is the last segment's
 * input + generated ids, loss on every generated position, trainer log-probabilities there.
 */
export function buildTrainedChain(overrides: Partial<NonNullable<Rollout['training']>> = {}, tools = ['read_file', 'finish']): Rollout {
  const chain = buildChain(tools.map((tool) => ({ tool })));
  const last = chain.segments[chain.segments.length - 1];
  if (!last) throw new Error('a chain needs a tool');
  const seq = [...last.input_ids, ...last.generated_ids];
  const mask = seq.map((_, i) =>
    chain.segments.some((s) => i >= s.input_ids.length && i < s.input_ids.length + s.generated_ids.length) ? 1 : 0,
  );
  const logprobs = seq.map((_, i) => (mask[i] ? -0.5 : null));
  return buildRollout({ ...chain, training: { sequence_ids: seq, loss_mask: mask, logprobs, ...overrides } });
}

/** A record's own findings (§7) as code, place and severity, the message left out. */
export function lintCodes(record: Rollout, driftThreshold?: number) {
  return rolloutFindings(record, { driftThreshold }).map(({ code, segment, step, severity }) => ({
    code,
    segment,
    step,
    severity,
  }));
}
