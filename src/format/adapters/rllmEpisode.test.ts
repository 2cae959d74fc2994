import { describe, expect, it } from 'vitest';
import { contextMessages } from '../additions';
import { FIXTURES, numbersIn, parseText, rolloutsOf, transcriptOf } from './fixtures';
import { rllmTermination } from './rllmEpisode';

describe('rLLM episode JSON', () => {
  it('maps a trajectory: task id from the episode id, group by task and trajectory name, policy from weight versions', () => {
    const [r] = rolloutsOf('rllmEpisode');
    expect(r).toMatchObject({
      source_format: 'rllm-episode',
      task_id: 'gsm8k_42',
      rollout_id: '9f8e7d6c-0001',
      group_id: 'gsm8k_42:solver',
      policy_version: '5..6',
      termination: 'finished',
      reward: 1,
    });
  });

  it('one segment per step, ids and logprobs copied exactly; the step id joins the segment to the executed action', () => {
    const [r] = rolloutsOf('rllmEpisode');
    expect(r?.segments.map((s) => [s.input_ids, s.generated_ids, s.old_logprobs, s.tool_call_id, s.text, s.transcript_index])).toEqual([
      [[1, 2, 3, 4, 5], [50, 51, 52], [-0.2, -0.1, -0.6], '7b1e-step-1', 'Half of 48 is 24; adding.', 2],
      [[1, 2, 3, 4, 5, 50, 51, 52, 60, 61], [70, 71], [-0.05, -0.01], '7b1e-step-2', 'The answer is 72.', 4],
    ]);
    expect(r?.steps).toEqual([
      {
        tool_call_id: '7b1e-step-1',
        tool: 'calculator',
        args: { expression: '48 + 48/2' },
        observation: { text: 'calculator: 72' },
        process_reward: 0,
      },
      { tool_call_id: '7b1e-step-2', tool: 'action', observation: { text: '' }, process_reward: 1 },
    ]);
    expect(transcriptOf(r)?.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'user', 'assistant']);
  });

  it('invents no ids or logprobs', () => {
    const source = numbersIn(JSON.parse(FIXTURES.rllmEpisode.text));
    for (const s of rolloutsOf('rllmEpisode').flatMap((r) => r.segments)) {
      for (const n of [...s.input_ids, ...s.generated_ids, ...s.old_logprobs]) expect(source.has(n)).toBe(true);
    }
    for (const s of rolloutsOf('rllmEpisodes').flatMap((r) => r.segments))
      expect([s.input_ids, s.generated_ids, s.old_logprobs]).toEqual([[], [], []]);
  });

  it('carries unmapped fields under extra, without repeating the token arrays of model_output', () => {
    const [r] = rolloutsOf('rllmEpisode');
    expect(r?.extra).toMatchObject({
      name: 'solver',
      signals: { accuracy: 1 },
      episode: { id: 'gsm8k_42:0', termination_reason: 'env_done', is_correct: true, metrics: { solver_acc: 1 }, eval_idx: 0 },
    });
    const stepExtra = r?.segments[0]?.extra as { model_output: Record<string, unknown>; thought: string; weight_version: number };
    expect(stepExtra).toMatchObject({ thought: '48/2=24', weight_version: 5, mc_return: 0, metadata: { turn: 3 } });
    expect(stepExtra.model_output).toMatchObject({ finish_reason: 'stop', metrics: { ttft: 0.05 } });
    expect(Object.keys(stepExtra.model_output)).not.toContain('completion_ids');
  });

  it('reads an array file, each episode on the line it starts on; `error` is excluded with its reward set aside, `unknown` is kept', () => {
    const { results, format } = parseText(FIXTURES.rllmEpisodes.text, FIXTURES.rllmEpisodes.name);
    expect(format).toBe('rllm-episode');
    const lines = FIXTURES.rllmEpisodes.text.split('\n');
    const starts = lines.flatMap((l, i) => (l === '  {' ? [i + 1] : []));
    expect(results.map((r) => r.value.line)).toEqual(starts);
    const [err, unk] = results.map((r) => (r.kind === 'rollout' ? r.value.record : null));
    expect(err).toMatchObject({ task_id: 'gsm8k_43', termination: 'infra_failure', reward: null, extra: { source_reward: 0 } });
    expect(unk).toMatchObject({ task_id: 'gsm8k_43', group_id: 'gsm8k_43:solver', termination: 'unknown', reward: 1 });
  });

  it('Episode.to_dict() steps have no id: no v1 steps, no call ids; non-cumulative chats keep their own context per segment', () => {
    const unk = rolloutsOf('rllmEpisodes')[1];
    expect(unk?.steps).toBeUndefined();
    expect(unk?.transcript).toBeUndefined();
    expect(unk?.segments.map((s) => [s.tool_call_id, s.text, contextMessages(s)?.map((m) => m.content)])).toEqual([
      [null, '56', ['What is 7 * 8? Think briefly.']],
      [null, 'Still 56', ['Check: what is 7 * 8?']],
    ]);
    expect(unk?.segments[0]?.extra).toMatchObject({
      action: '56',
      reward: 1,
      done: true,
      generated_message: { role: 'assistant', content: '56' },
    });
    const errored = rolloutsOf('rllmEpisodes')[0];
    expect(errored?.segments[0]?.extra).toMatchObject({ observation: null, reward: 0 });
  });

  it('keeps multimodal prompt_ids out of input_ids, and an episode with no trajectory as a rollout with no segments', () => {
    const episode = {
      id: 'img_1:0',
      termination_reason: 'error',
      trajectories: [
        { uid: 'u1', name: 'agent', steps: [{ id: 's1', prompt_ids: [1, { image: 'x' }], response_ids: [9], logprobs: [-0.5] }] },
      ],
    };
    const empty = { id: 'img_2:0', termination_reason: 'timeout', trajectories: [] };
    const { results } = parseText(`${JSON.stringify(episode)}\n${JSON.stringify(empty)}\n`, 'episodes.jsonl', { from: 'rllm-episode' });
    expect(results[0]?.kind === 'rollout' && results[0].value.record.segments[0]).toMatchObject({
      input_ids: [],
      generated_ids: [9],
      old_logprobs: [-0.5],
      extra: { prompt_ids: [1, { image: 'x' }] },
    });
    expect(results[1]?.kind === 'rollout' && results[1].value.record).toMatchObject({
      rollout_id: 'img_2:0',
      segments: [],
      termination: 'budget_exhausted',
    });
  });
});

describe('rllmTermination', () => {
  it.each([
    ['env_done', 'finished'],
    ['max_turns_exceeded', 'budget_exhausted'],
    ['max_response_length_exceeded', 'budget_exhausted'],
    ['max_prompt_length_exceeded', 'budget_exhausted'],
    ['timeout', 'budget_exhausted'],
    ['error', 'infra_failure'],
    ['TerminationReason.ENV_DONE', 'finished'],
    ['unknown', 'unknown'],
    ['judge_rejected', 'judge_rejected'],
    [null, 'unknown'],
    [undefined, 'unknown'],
  ])('%s -> %s', (reason, expected) => {
    expect(rllmTermination(reason)).toBe(expected);
  });
});
