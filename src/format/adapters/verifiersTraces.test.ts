import { describe, expect, it } from 'vitest';
import { contextMessagesOf, FIXTURES, numbersIn, parseText, rolloutsOf, transcriptOf } from './fixtures';
import { list, rec } from './read';
import { traceReward, traceTermination } from './verifiersTraces';

const episodes = FIXTURES.traces.text
  .trim()
  .split('\n')
  .map((l) => JSON.parse(l));

describe('verifiers v1 / prime-rl traces.jsonl', () => {
  it('maps a trace: ids, group, policy span, sampling, task, timing, reward', () => {
    const [a] = rolloutsOf('traces');
    expect(a).toMatchObject({
      source_format: 'verifiers-traces',
      task_id: 'wordle/3',
      rollout_id: '3f2a9c0e5b7d4e1f',
      group_id: 'g-7',
      policy_version: '11..12',
      sampling: { temperature: 1, top_p: 1, max_new_tokens: 64 },
      task: { prompt: 'Find the hidden five-letter word.' },
      started_at: '2026-01-02T00:00:00.000Z',
      ended_at: '2026-01-02T00:00:10.000Z',
      termination: 'finished',
    });
    // Trace.reward: 1.0 * 1.0 + 0.5 * 0.2
    expect(a?.reward).toBeCloseTo(1.1, 12);
  });

  it('builds each segment from the node path: context = earlier spans + own scaffold, generation = sampled span', () => {
    const [a] = rolloutsOf('traces');
    expect(a?.segments.map((s) => [s.input_ids, s.generated_ids, s.old_logprobs, s.tool_call_id, s.text, s.transcript_index])).toEqual([
      [[101, 102, 103, 104, 200], [201, 202, 203, 204], [-0.11, -0.25, -0.03, -0.5], 'call-1', 'Let me try crane.', 1],
      [
        [101, 102, 103, 104, 200, 201, 202, 203, 204, 300, 301, 302, 210],
        [211, 212],
        [-0.7, -0.02],
        null,
        'The word is cache? No: it is crate.',
        3,
      ],
    ]);
    expect(a?.steps).toEqual([
      { tool_call_id: 'call-1', tool: 'guess', args: { word: 'crane' }, observation: { text: 'c r a n e -> G Y . . G' } },
    ]);
    expect(transcriptOf(a)?.[3]).toMatchObject({ role: 'assistant', reasoning: 'C and E are green.' });
  });

  it('invents no token ids or logprobs: every number in a segment is in the source line', () => {
    const records = rolloutsOf('traces');
    const source = numbersIn(episodes);
    for (const r of records)
      for (const s of r.segments) for (const n of [...s.input_ids, ...s.generated_ids, ...s.old_logprobs]) expect(source.has(n)).toBe(true);
  });

  it('carries unmapped fields under extra: model calls on their segment, node metadata, episode, rewards by name', () => {
    const [a] = rolloutsOf('traces');
    expect(a?.segments[0]?.extra).toEqual({
      node: 1,
      call: expect.objectContaining({ finish_reason: 'tool_calls', usage: { prompt_tokens: 4, completion_tokens: 4 } }),
    });
    expect(a?.extra).toMatchObject({
      rewards: { solved: { score: 1, weight: 1 }, format: { score: 0.5, weight: 0.2 } },
      metrics: { num_guesses: 1 },
      stop_condition: 'agent_completed',
      agent: { name: 'agent', trainable: true },
      tools: [{ name: 'guess' }],
      task: { type: 'Task', hash: '9c1e77' },
      episode: { id: 'ep-0001', env: { id: 'wordle' }, run: { work: { step: 12 } } },
    });
    expect(list(rec(a?.extra)?.nodes)?.[1]).toEqual({ parent: 0, sampled: true, timestamp: 1767312003, is_content: [] });
  });

  it('splits a reply whose mask has a gap into one segment per sampled run, and reads a branching graph by path', () => {
    const b = rolloutsOf('traces')[1];
    expect(b?.segments.map((s) => [s.input_ids, s.generated_ids, s.old_logprobs])).toEqual([
      [[101, 102, 103, 104, 220], [221], [-0.3]],
      [[101, 102, 103, 104, 220, 221, 222], [223], [-0.9]],
      [
        [101, 102, 103, 104, 230, 231, 240],
        [241, 242],
        [-0.2, -0.4],
      ],
    ]);
    expect(b?.segments[0]?.extra).toEqual({ node: 1, sampled_run: 0 });
    // The compaction branch: the last reply saw the summary, not the first reply.
    expect(contextMessagesOf(b?.segments[2])?.map((m) => m.content)).toEqual([
      'Find the hidden five-letter word.',
      '(summary) tried slate',
    ]);
    expect(b).toMatchObject({
      termination: 'budget_exhausted',
      reward: 0,
      extra: { calls_without_node: [{ error: { type: 'ProviderError' } }] },
    });
  });

  it('keeps an episode that produced no trace as a rollout with no segments, ended by its error', () => {
    expect(rolloutsOf('traces')[2]).toMatchObject({
      rollout_id: 'ep-0003',
      group_id: 'g-7',
      policy_version: '11..12',
      segments: [],
      termination: 'infra_failure',
      reward: null,
      extra: { errors: [{ type: 'HarnessError' }] },
    });
  });

  it('one rollout per agent trace: an unknown stop condition kept as-is, a failed judge excluded with its reward set aside', () => {
    const [solver, judge] = rolloutsOf('traces').slice(3);
    expect(solver).toMatchObject({ task_id: 'wordle/4', group_id: 'g-8', termination: 'secret_found', reward: 1 });
    expect(judge).toMatchObject({
      termination: 'infra_failure',
      reward: null,
      extra: { source_reward: 0, agent: { name: 'judge', trainable: false } },
    });
  });

  it('reads a line holding a bare Trace as an episode of one', () => {
    const trace = episodes[0].traces[0];
    const { results, format } = parseText(JSON.stringify(trace), 'trace.jsonl');
    expect(format).toBe('verifiers-traces');
    expect(results.map((r) => r.kind === 'rollout' && r.value.record.rollout_id)).toEqual(['3f2a9c0e5b7d4e1f']);
  });

  it('a relay turn without token ids is a text segment; a mask of the wrong length is E_SCHEMA for that line', () => {
    const relay = {
      traces: [
        {
          id: 't',
          nodes: [
            { parent: null, message: { role: 'user', content: 'q' } },
            { parent: 0, message: { role: 'assistant', content: 'a' }, sampled: true },
          ],
        },
      ],
    };
    const broken = {
      traces: [{ id: 'u', nodes: [{ parent: null, message: { role: 'user', content: 'q' }, token_ids: [1, 2], mask: [false] }] }],
    };
    const { results } = parseText([relay, broken].map((e) => JSON.stringify(e)).join('\n'), 'traces.jsonl');
    expect(results[0]?.kind === 'rollout' && results[0].value.record.segments).toEqual([
      { input_ids: [], generated_ids: [], old_logprobs: [], tool_call_id: null, text: 'a', transcript_index: 1, extra: { node: 1 } },
    ]);
    expect(results[1]?.value).toMatchObject({ line: 2, code: 'E_SCHEMA', message: expect.stringContaining('traces[0].nodes[0].mask') });
  });

  it('keeps the tokens of a node no segment covers whole (a template closer after the reply) under extra.nodes', () => {
    const episode = {
      traces: [
        {
          id: 't',
          nodes: [
            { parent: null, message: { role: 'user', content: 'q' }, token_ids: [1], mask: [false] },
            {
              parent: 0,
              message: { role: 'assistant', content: 'a' },
              sampled: true,
              token_ids: [5, 6, 7],
              mask: [false, true, false],
              logprobs: [-1],
            },
          ],
        },
      ],
    };
    const [r] = parseText(JSON.stringify(episode), 'traces.jsonl').results;
    if (r?.kind !== 'rollout') throw new Error(JSON.stringify(r));
    expect(r.value.record.segments[0]).toMatchObject({ input_ids: [1, 5], generated_ids: [6], old_logprobs: [-1] });
    expect(list(rec(r.value.record.extra)?.nodes)).toEqual([
      { parent: null },
      { parent: 0, sampled: true, token_ids: [5, 6, 7], mask: [false, true, false], logprobs: [-1] },
    ]);
  });

  it('keeps a gapped reply whole when its logprobs do not match the sampled count, so lint reports the mismatch', () => {
    const episode = {
      traces: [
        {
          id: 't',
          nodes: [
            { parent: null, message: { role: 'user', content: 'q' }, token_ids: [1], mask: [false] },
            {
              parent: 0,
              message: { role: 'assistant', content: 'a' },
              sampled: true,
              token_ids: [5, 6, 7],
              mask: [true, false, true],
              logprobs: [-1],
            },
          ],
        },
      ],
    };
    const [r] = parseText(JSON.stringify(episode), 'traces.jsonl').results;
    expect(r?.kind === 'rollout' && r.value.record.segments[0]).toMatchObject({
      input_ids: [1],
      generated_ids: [5, 6, 7],
      old_logprobs: [-1],
      loss_mask: [1, 0, 1],
    });
  });
});

describe('traceTermination', () => {
  it.each([
    [{ stop_condition: 'agent_completed', ok: true }, 'finished'],
    [{ stop_condition: 'user_closed', ok: true }, 'finished'],
    [{ stop_condition: 'max_turns' }, 'budget_exhausted'],
    [{ stop_condition: 'max_input_tokens' }, 'budget_exhausted'],
    [{ stop_condition: 'max_output_tokens' }, 'budget_exhausted'],
    [{ stop_condition: 'max_total_tokens' }, 'budget_exhausted'],
    [{ stop_condition: 'context_length' }, 'budget_exhausted'],
    [{ stop_condition: 'error', errors: [{ type: 'ProviderError' }] }, 'infra_failure'],
    [{ stop_condition: 'error', errors: [{ type: 'HarnessError' }, { type: 'OverlongPromptError' }] }, 'budget_exhausted'],
    [{ stop_condition: 'error', errors: [{ type: 'TaskError' }] }, 'infra_failure'],
    [{ stop_condition: 'error', errors: [{ type: 'KeyError' }] }, 'error'],
    [{ stop_condition: 'agent_completed', ok: false, errors: [{ type: 'TaskError' }] }, 'infra_failure'],
    [{ stop_condition: 'agent_completed', ok: false, errors: [{ type: 'KeyError' }] }, 'agent_completed'],
    [{ stop_condition: 'empty_action' }, 'empty_action'],
    [{}, 'unknown'],
  ])('%j -> %s', (trace, expected) => {
    expect(traceTermination(trace)).toBe(expected);
  });

  it('rewards: weighted sum of those scored; null when none was', () => {
    expect(traceReward({ a: { score: 1, weight: 0.5 }, b: null, c: { score: 2 } })).toBe(2.5);
    expect(traceReward({ a: null })).toBeNull();
    expect(traceReward({})).toBeNull();
  });
});
