import { describe, expect, it } from 'vitest';
import { FIXTURES, fixtureMetadata, parseText, rolloutsOf, segmentNumbers, transcriptOf } from './fixtures';
import { verifiersResultsTermination } from './verifiersResults';

const withMetadata = () => rolloutsOf('verifiersResults', { metadata: fixtureMetadata('verifiersMetadata') });
const file = FIXTURES.verifiersResults.name;

describe('verifiers results.jsonl', () => {
  it('maps a tool-using rollout: transcript, text segments, steps, reward, run metadata', () => {
    const [first] = withMetadata();
    expect(first).toMatchObject({
      source_format: 'verifiers-results',
      task_id: 'calc-tools/0',
      rollout_id: `${file}:1`,
      policy_version: 'Qwen/Qwen3-4B-Instruct',
      environment_version: '0.2.0',
      sampling: { temperature: 0.7, top_p: 0.95, max_new_tokens: 512 },
      started_at: '2026-01-01T00:00:00.000Z',
      ended_at: '2026-01-01T00:00:03.250Z',
      termination: 'finished',
      reward: 1,
    });
    expect(transcriptOf(first)?.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'tool', 'assistant']);
    expect(transcriptOf(first)?.[2]?.tool_calls).toEqual([{ id: 'call_a1', name: 'calc', arguments: '{"expr": "17*23"}' }]);
    expect(first?.segments).toEqual([
      { input_ids: [], generated_ids: [], old_logprobs: [], tool_call_id: 'call_a1', text: 'I will compute it.', transcript_index: 2 },
      { input_ids: [], generated_ids: [], old_logprobs: [], tool_call_id: null, text: '17 * 23 = 391', transcript_index: 4 },
    ]);
    expect(first?.steps).toEqual([{ tool_call_id: 'call_a1', tool: 'calc', args: { expr: '17*23' }, observation: { text: '391' } }]);
  });

  it('invents no ids and no logprobs: every segment is text only', () => {
    const all = [...withMetadata(), ...rolloutsOf('verifiersOldResults')];
    expect(segmentNumbers(all)).toEqual([]);
    for (const r of all) for (const s of r.segments) expect(typeof s.text === 'string' || s.tool_call_id !== null).toBe(true);
  });

  it('carries every unmapped field under extra: per-function reward columns, metrics, answer, status, timing', () => {
    const [first] = withMetadata();
    expect(first?.extra).toMatchObject({
      correct_answer: 1,
      num_tool_calls: 1,
      metrics: { correct_answer: 1, num_tool_calls: 1 },
      answer: '391',
      info: { source: 'arith' },
      stop_condition: 'no_tools_called',
      is_completed: true,
      timing: { start_time: 1767225600 },
      token_usage: { input_tokens: 210, output_tokens: 31 },
      tool_defs: [{ name: 'calc' }],
      rollouts_per_example: 2,
      sampling_args: { extra_body: { min_p: 0 } },
    });
  });

  it('keeps every call of a parallel tool-call message: first as tool_call_id, all in tool_call_ids, one step each', () => {
    const second = withMetadata()[1];
    expect(second?.segments[0]).toMatchObject({ tool_call_id: 'call_b1', tool_call_ids: ['call_b1', 'call_b2'] });
    expect(second?.steps?.map((s) => [s.tool_call_id, s.args])).toEqual([
      ['call_b1', { expr: '17*20' }],
      ['call_b2', { expr: '17*3' }],
    ]);
    expect(second?.termination).toBe('budget_exhausted');
  });

  it('moves the reward of an infrastructure failure to extra.source_reward', () => {
    const third = withMetadata()[2];
    expect(third).toMatchObject({
      termination: 'infra_failure',
      reward: null,
      extra: { source_reward: 0, error: { error: 'SandboxError' } },
    });
  });

  it('keeps a stop condition it does not know as the termination, so lint warns instead of guessing', () => {
    expect(withMetadata()[3]).toMatchObject({ termination: 'judge_said_stop', reward: 1 });
  });

  it('reads older files: `id` as the group key, top-level sampling in metadata, no status fields', () => {
    const [a, b] = rolloutsOf('verifiersOldResults', { metadata: fixtureMetadata('verifiersOldMetadata') });
    expect(a).toMatchObject({
      task_id: 'reverse-text/0',
      policy_version: 'gpt-4.1-mini',
      sampling: { temperature: 0.7, max_new_tokens: 256 },
      termination: 'unknown',
      reward: 1,
      extra: { task: 'reverse', exact_match: 1 },
    });
    expect(b?.task_id).toBe(a?.task_id);
  });

  it('without metadata.json, the example id alone is the task', () => {
    const [first] = rolloutsOf('verifiersResults');
    expect(first?.task_id).toBe('0');
    expect(first?.policy_version).toBeUndefined();
  });

  it('reads a completion-format row (plain text in, plain text out) as one text segment', () => {
    const line = JSON.stringify({ example_id: 5, prompt: 'Q: 2+2?\nA:', completion: ' 4', reward: 1, is_completed: true });
    const [r] = parseText(line, 'results.jsonl').results;
    expect(r?.kind === 'rollout' && r.value.record).toMatchObject({
      task: { prompt: 'Q: 2+2?\nA:' },
      segments: [{ input_ids: [], generated_ids: [], old_logprobs: [], tool_call_id: null, text: ' 4' }],
      termination: 'finished',
    });
  });

  it('keeps a tool step whose arguments are not valid JSON, without args; the raw text stays in the transcript', () => {
    const row = {
      example_id: 1,
      prompt: [{ role: 'user', content: 'go' }],
      completion: [
        { role: 'assistant', content: '', tool_calls: [JSON.stringify({ id: 'c1', name: 'calc', arguments: '{"expr": ' })] },
        { role: 'tool', tool_call_id: 'c1', content: 'parse error' },
      ],
      reward: 0,
    };
    const [r] = parseText(JSON.stringify(row), 'results.jsonl').results;
    if (r?.kind !== 'rollout') throw new Error(JSON.stringify(r));
    expect(r.value.record.steps).toEqual([{ tool_call_id: 'c1', tool: 'calc', observation: { text: 'parse error' } }]);
    expect(transcriptOf(r.value.record)?.[1]?.tool_calls?.[0]?.arguments).toBe('{"expr": ');
  });

  it('reports a row it cannot read as E_SCHEMA naming the source field, and keeps the other rows', () => {
    const good = FIXTURES.verifiersResults.text.split('\n')[0];
    const text = [
      good,
      JSON.stringify({ example_id: 2, prompt: [], completion: 'x', reward: 'high' }),
      JSON.stringify({ prompt: [], completion: [], reward: 0 }),
      good,
    ].join('\n');
    const { results } = parseText(text, 'results.jsonl');
    expect(results.map((r) => [r.kind, r.value.line])).toEqual([
      ['rollout', 1],
      ['error', 2],
      ['error', 3],
      ['rollout', 4],
    ]);
    expect(results[1]?.value).toMatchObject({ code: 'E_SCHEMA', message: expect.stringContaining('reward: expected a number') });
    expect(results[2]?.value).toMatchObject({ code: 'E_SCHEMA', message: expect.stringContaining('example_id') });
  });
});

describe('verifiersResultsTermination', () => {
  const final = [{ role: 'assistant', content: 'done' }];
  const calling = [{ role: 'assistant', content: null, tool_calls: [{ id: 'c', name: 't' }] }];
  it.each([
    [{ stop_condition: 'no_tools_called' }, final, 'finished'],
    [{ stop_condition: 'has_final_env_response' }, final, 'finished'],
    [{ stop_condition: 'agent_completed' }, final, 'finished'],
    [{ stop_condition: 'max_turns_reached' }, final, 'finished'],
    [{ stop_condition: 'max_turns_reached' }, calling, 'budget_exhausted'],
    [{ stop_condition: 'max_total_completion_tokens_reached' }, final, 'budget_exhausted'],
    [{ stop_condition: 'prompt_too_long' }, final, 'budget_exhausted'],
    [{ stop_condition: 'timeout_reached' }, final, 'budget_exhausted'],
    [{ stop_condition: 'has_error', error: { error: 'InfraError' } }, final, 'infra_failure'],
    [{ stop_condition: 'has_error', error: { error: 'ModelError' } }, final, 'infra_failure'],
    [{ stop_condition: 'has_error', error: { error: 'EmptyModelResponseError' } }, final, 'invalid_call'],
    [{ stop_condition: 'has_error', error: { error: 'ToolParseError' } }, final, 'invalid_call'],
    [{ stop_condition: 'has_error', error: { error: 'OverlongPromptError' } }, final, 'budget_exhausted'],
    [{ stop_condition: 'has_error', error: { error: 'ValueError' } }, final, 'has_error'],
    [{ error: { error: 'ValueError' } }, final, 'ValueError'],
    [{ stop_condition: 'is_done' }, final, 'is_done'],
    [{ is_truncated: true }, final, 'budget_exhausted'],
    [{ is_completed: true }, final, 'finished'],
    [{}, final, 'unknown'],
  ])('%j -> %s', (row, completion, expected) => {
    expect(verifiersResultsTermination(row, completion)).toBe(expected);
  });
});
