import { describe, expect, it } from 'vitest';
import { FIXTURES, parseText, rolloutsOf, segmentNumbers, transcriptOf } from './fixtures';

describe('OpenAI-style chat JSONL', () => {
  it('maps a conversation: assistant messages are text segments, tool results are steps, reward copied', () => {
    const [r] = rolloutsOf('chat');
    expect(r).toMatchObject({ source_format: 'openai-chat', reward: 1, termination: 'unknown' });
    expect(r?.segments).toEqual([
      { input_ids: [], generated_ids: [], old_logprobs: [], tool_call_id: 'call_w1', text: '', transcript_index: 2 },
      {
        input_ids: [],
        generated_ids: [],
        old_logprobs: [],
        tool_call_id: null,
        text: 'It is 4°C and raining in Oslo.',
        transcript_index: 4,
      },
    ]);
    expect(r?.steps).toEqual([
      { tool_call_id: 'call_w1', tool: 'get_weather', args: { city: 'Oslo' }, observation: { text: '{"temp_c": 4, "sky": "rain"}' } },
    ]);
    expect(transcriptOf(r)?.[4]).toMatchObject({ weight: 1 });
  });

  it('without ids on the line, its location names the task and the rollout (its own group); no ids are made up', () => {
    const [, second] = rolloutsOf('chat');
    expect(second).toMatchObject({ task_id: `${FIXTURES.chat.name}:2`, rollout_id: `${FIXTURES.chat.name}:2`, reward: null });
    expect(segmentNumbers(rolloutsOf('chat'))).toEqual([]);
  });

  it('takes ids and a termination written on the line; keeps unmapped fields under extra', () => {
    const [first, , third] = rolloutsOf('chat');
    expect(third).toMatchObject({
      task_id: 'weather-oslo',
      rollout_id: 'r-17',
      termination: 'finished',
      reward: 0,
      extra: { metadata: { sampler: 't=1.0' } },
    });
    expect(first?.extra).toEqual({ tools: [expect.objectContaining({ type: 'function' })], parallel_tool_calls: false });
  });

  it('joins text parts of a multi-part content and keeps the parts', () => {
    const second = rolloutsOf('chat')[1];
    expect(transcriptOf(second)?.[1]).toMatchObject({
      content: 'Hi\nthere!',
      content_parts: [
        { type: 'text', text: 'Hi' },
        { type: 'text', text: 'there!' },
      ],
    });
  });

  it('sets aside the reward of a line that says it was cancelled', () => {
    const line = { messages: [{ role: 'user', content: 'x' }], termination: 'cancelled', reward: 0.5 };
    const [r] = parseText(JSON.stringify(line), 'c.jsonl').results;
    expect(r?.kind === 'rollout' && r.value.record).toMatchObject({ reward: null, extra: { source_reward: 0.5 } });
  });

  it('a message without a role is E_SCHEMA for its line only', () => {
    const text = `${FIXTURES.chat.text.split('\n')[0]}\n{"messages": [{"role": "user", "content": "a"}, {"content": "b"}]}\n`;
    const { results } = parseText(text, 'c.jsonl');
    expect(results.map((r) => r.kind)).toEqual(['rollout', 'error']);
    expect(results[1]?.value).toMatchObject({ line: 2, code: 'E_SCHEMA', message: expect.stringContaining('messages[1]') });
  });
});
