/*
 * Typed builders for test data. Never imported by production code.
 * Each returns a record that is valid v1 and lints clean (apart from W_MISSING_METADATA when the
 * metadata is left out on purpose), so a test changes only the field it is about.
 */
import type { LoadedRollout, Rollout, Segment, Step } from '../format';

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

export function loaded(record: Rollout, line = 1, file = 'test.jsonl'): LoadedRollout {
  return { file, line, record };
}

export function toJsonl(records: unknown[]): string {
  return `${records.map((r) => (typeof r === 'string' ? r : JSON.stringify(r))).join('\n')}\n`;
}
