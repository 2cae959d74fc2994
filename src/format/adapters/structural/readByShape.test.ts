import { describe, expect, it } from 'vitest';
import type { LineResult } from '../../jsonl';
import { createLineParser } from '../lineParser';
import { parseFieldMapping } from '../mapping/schema';
import { mappingOfInferred } from './inferredMapping';

/*
 * One small record of each shape the structural reader takes, written from each shape's own documentation
 * (OpenAI chat, the Responses API, Anthropic Messages, Gemini contents, ShareGPT, LangChain message dicts,
 * smolagents ChatMessages, step lists), read end to end through the parser the CLI and the page share.
 */

// biome-ignore lint/suspicious/noExplicitAny: converted records are untyped JSON; the assertions check their shape
type Json = Record<string, any>;

function read(lines: readonly unknown[], name = 'dump.jsonl') {
  const parser = createLineParser(name);
  const text = `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`;
  const results: LineResult[] = [...parser.push(new TextEncoder().encode(text)), ...parser.end()];
  const rollouts = results.flatMap((r) => (r.kind === 'rollout' ? [r.value.record as Json] : []));
  const errors = results.flatMap((r) => (r.kind === 'error' ? [r.value] : []));
  return { format: parser.format, rollouts, errors, unsupported: parser.unsupported };
}

function one(line: unknown): Json {
  const { format, rollouts, errors } = read([line]);
  expect(errors).toEqual([]);
  expect(format).toBe('structural');
  expect(rollouts).toHaveLength(1);
  return rollouts[0] as Json;
}

const tools = (r: Json) => (r.steps ?? []).map((s: Json) => [s.tool, s.observation.text]);

describe('read by shape', () => {
  it('smolagents ChatMessages: tool-call and tool-response paired by the call id the response names', () => {
    const r = one({
      task: 'What is 2 + 2?',
      intermediate_steps: [
        { role: 'system', content: [{ type: 'text', text: 'You are an expert assistant.' }] },
        { role: 'user', content: [{ type: 'text', text: 'New task:\nWhat is 2 + 2?' }] },
        {
          role: 'tool-call',
          content: [{ type: 'text', text: 'Calling tools:' }],
          tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'python_interpreter', arguments: 'print(2 + 2)' } }],
        },
        { role: 'tool-response', content: [{ type: 'text', text: 'Call id: call_1\nObservation:\nExecution logs:\n4' }] },
        { role: 'assistant', content: [{ type: 'text', text: 'The answer is 4.' }] },
      ],
      score: 1,
    });
    expect(tools(r)).toEqual([['python_interpreter', 'Execution logs:\n4']]);
    expect(r.steps[0].tool_call_id).toBe('call_1');
    expect(r.steps[0].joined_by).toBeUndefined();
    expect(r.reward).toBe(1);
    expect(r.task).toEqual({ prompt: 'What is 2 + 2?' });
    expect(r.extra.read_by_shape).toEqual({ conversation: 'intermediate_steps', shape: 'smolagents', reward: 'score', prompt: 'task' });
    expect(r.termination).toBe('unknown');
  });

  it('a step list of thought / action / observation, paired by order, and a boolean verdict as reward', () => {
    const r = one({
      task_id: 'shop-17',
      steps: [
        { thought: 'Search first.', action: { tool: 'search', tool_input: { q: 'red mug' } }, observation: '3 results' },
        { thought: 'Buy the first.', action: { tool: 'buy', tool_input: { item: 1 } }, observation: 'bought' },
      ],
      success: true,
      tool_calls_summary: { search: 1, buy: 1 },
    });
    expect(tools(r)).toEqual([
      ['search', '3 results'],
      ['buy', 'bought'],
    ]);
    expect(r.steps.map((s: Json) => s.joined_by)).toEqual(['position', 'position']);
    expect(r.steps[0].args).toEqual({ q: 'red mug' });
    expect(r.steps[0].tool_call_id_is_locator).toBe(true);
    expect(r.reward).toBe(1);
    expect(r.task_id).toBe('shop-17');
    expect(r.extra.tool_calls_summary).toEqual({ search: 1, buy: 1 });
  });

  it("LangChain's intermediate_steps of [AgentAction, observation]", () => {
    const r = one({
      input: 'Population of Oslo?',
      output: 'About 700,000.',
      intermediate_steps: [[{ tool: 'search', tool_input: 'Oslo population', log: 'I should search.' }, '709,037 (2023)']],
    });
    expect(tools(r)).toEqual([['search', '709,037 (2023)']]);
    expect(r.reward).toBeNull();
    expect(r.task).toEqual({ prompt: 'Population of Oslo?' });
  });

  it('Anthropic content blocks under messages: tool_use and tool_result joined by id (not read as plain chat)', () => {
    const r = one({
      id: 'run-3',
      messages: [
        { role: 'user', content: 'List the files.' },
        {
          role: 'assistant',
          content: [
            { type: 'text', text: 'Listing.' },
            { type: 'tool_use', id: 'toolu_01', name: 'bash', input: { command: 'ls' } },
          ],
        },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_01', content: 'a.txt\nb.txt' }] },
        { role: 'assistant', content: [{ type: 'text', text: 'Two files.' }] },
      ],
      metrics: { correct: false },
      stop_reason: 'end_turn',
    });
    expect(tools(r)).toEqual([['bash', 'a.txt\nb.txt']]);
    expect(r.steps[0]).toMatchObject({ tool_call_id: 'toolu_01', args: { command: 'ls' } });
    expect(r.segments.map((s: Json) => s.text)).toEqual(['Listing.', 'Two files.']);
    expect(r.reward).toBe(0);
    expect(r.termination).toBe('finished');
    expect(r.extra.read_by_shape).toMatchObject({ reward: 'metrics.correct', termination: 'stop_reason' });
  });

  it('Gemini contents: functionCall and functionResponse paired by order', () => {
    const r = one({
      contents: [
        { role: 'user', parts: [{ text: 'Weather in Oslo?' }] },
        { role: 'model', parts: [{ functionCall: { name: 'get_weather', args: { city: 'Oslo' } } }] },
        { role: 'user', parts: [{ functionResponse: { name: 'get_weather', response: { temp_c: 4 } } }] },
        { role: 'model', parts: [{ text: 'It is 4 °C.' }] },
      ],
      score: 0.5,
    });
    expect(tools(r)).toEqual([['get_weather', '{"temp_c":4}']]);
    expect(r.steps[0].joined_by).toBe('position');
    // Paired once the record's place is known (detection reads the list before it is): the id names it.
    expect(r.steps[0].tool_call_id).toBe('dump.jsonl:1/contents/call-0');
    expect(r.transcript[1].tool_calls[0].id).toBe('dump.jsonl:1/contents/call-0');
    expect(r.reward).toBe(0.5);
  });

  it('Responses API items: consecutive function calls are one turn, outputs joined by call_id', () => {
    const r = one({
      items: [
        { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Add 1 and 2, and 3 and 4.' }] },
        { type: 'function_call', call_id: 'c1', name: 'add', arguments: '{"a":1,"b":2}' },
        { type: 'function_call', call_id: 'c2', name: 'add', arguments: '{"a":3,"b":4}' },
        { type: 'function_call_output', call_id: 'c2', output: '7' },
        { type: 'function_call_output', call_id: 'c1', output: '3' },
        { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: '3 and 7' }] },
      ],
      reward: 1,
    });
    expect(tools(r)).toEqual([
      ['add', '7'],
      ['add', '3'],
    ]);
    expect(r.segments[0].tool_call_ids).toEqual(['c1', 'c2']);
  });

  it('ShareGPT with function_call and observation turns', () => {
    const r = one({
      conversations: [
        { from: 'human', value: 'Find a red mug.' },
        { from: 'function_call', value: '{"name": "search", "arguments": {"q": "red mug"}}' },
        { from: 'observation', value: '3 results' },
        { from: 'gpt', value: 'Found three.' },
      ],
    });
    expect(tools(r)).toEqual([['search', '3 results']]);
    expect(r.transcript[0].role).toBe('user');
  });

  it('LangChain message dicts (messages_to_dict) under messages: not taken for plain chat', () => {
    const r = one({
      messages: [
        { type: 'human', data: { content: '2 + 2?' } },
        { type: 'ai', data: { content: '', tool_calls: [{ name: 'calc', args: { expr: '2+2' }, id: 'c9' }] } },
        { type: 'tool', data: { content: '4', tool_call_id: 'c9' } },
        { type: 'ai', data: { content: '4' } },
      ],
      reward: 1,
    });
    expect(tools(r)).toEqual([['calc', '4']]);
  });

  it('a conversation nested deep, with the reward nested elsewhere', () => {
    const r = one({
      meta: { instance_id: 'astropy-1' },
      result: {
        trajectory: {
          history: [
            { role: 'user', content: 'Fix it.' },
            { role: 'assistant', content: null, tool_calls: [{ id: 't1', type: 'function', function: { name: 'edit', arguments: '{}' } }] },
            { role: 'tool', tool_call_id: 't1', content: 'ok' },
          ],
        },
      },
      eval: { resolved: true },
    });
    expect(tools(r)).toEqual([['edit', 'ok']]);
    expect(r.task_id).toBe('astropy-1');
    expect(r.reward).toBe(1);
    expect(r.extra.read_by_shape).toMatchObject({ conversation: 'result.trajectory.history', shape: 'chat', task_id: 'meta.instance_id' });
  });

  it('the reward beside the conversation, in the object that holds it (it was not searched)', () => {
    const r = one({
      instance: 't-1',
      result: {
        reward: 0.5,
        history: [
          { role: 'user', content: 'List the files.' },
          { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'ls', arguments: '{}' } }] },
          { role: 'tool', tool_call_id: 'c1', content: 'a.py' },
        ],
      },
    });
    expect(r.reward).toBe(0.5);
    expect(r.extra.read_by_shape).toMatchObject({ conversation: 'result.history', reward: 'result.reward' });
  });

  it('a data set of prompts (no model turn) is not a trajectory: the file is still of no known format', () => {
    const { format, rollouts, unsupported } = read([
      { id: 1, conversation: [{ role: 'user', content: 'Write a poem.' }] },
      { id: 2, conversation: [{ role: 'user', content: 'Write a story.' }] },
    ]);
    expect(format).toBeNull();
    expect(rollouts).toEqual([]);
    expect(unsupported).toMatch(/fields "id", "conversation"/);
  });
});

describe('read by shape: the source is only read, and one odd record costs only itself', () => {
  const chat = () => ({
    result: {
      history: [
        { role: 'user', content: 'List the files.' },
        { role: 'assistant', content: null, tool_calls: [{ type: 'function', function: { name: 'ls', arguments: '{}' } }] },
        { role: 'tool', content: 'a.py b.py' },
        { role: 'assistant', content: 'Two files.' },
      ],
      reward: 1,
    },
  });

  it('id-less chat calls get ids naming the record, their results paired by order, and the parsed source is not written', () => {
    const { rollouts, errors } = read([chat(), chat()]);
    expect(errors).toEqual([]);
    expect(rollouts.map((r) => r.steps?.map((s: Json) => [s.tool_call_id, s.tool, s.observation?.text]))).toEqual([
      [['dump.jsonl:1/result.history/call-0', 'ls', 'a.py b.py']],
      [['dump.jsonl:2/result.history/call-0', 'ls', 'a.py b.py']],
    ]);
    // The record keeps the source's messages as read: no id was written into its calls.
    const calls = rollouts[0]?.transcript?.find((m: Json) => m.tool_calls)?.tool_calls;
    expect(calls?.[0]?.id_is_position).toBe(true);
    const value = chat();
    const parser = createLineParser('dump.jsonl');
    parser.push(new TextEncoder().encode(`${JSON.stringify(value)}\n`));
    expect(value.result.history[1]?.tool_calls?.[0]).toEqual({ type: 'function', function: { name: 'ls', arguments: '{}' } });
  });

  it('a call written as a JSON string is read; one that is null fails its own line, naming it; the lines around are read', () => {
    const odd = (calls: unknown) => ({
      result: {
        history: [
          { role: 'user', content: 'Go.' },
          { role: 'assistant', content: null, tool_calls: calls },
        ],
        reward: 0,
      },
    });
    // Both threw out of the reader before (a TypeError writing an id into a string), losing every line after.
    const { rollouts, errors } = read([chat(), odd(['{"name": "ls"}']), odd([null]), chat()]);
    expect(rollouts.map((r) => [r.rollout_id, r.transcript?.[1]?.tool_calls?.[0]?.name ?? null])).toEqual([
      ['dump.jsonl:1', 'ls'],
      ['dump.jsonl:2', 'ls'],
      ['dump.jsonl:4', 'ls'],
    ]);
    expect(errors.map((e) => [e.line, e.code])).toEqual([[3, 'E_SCHEMA']]);
    expect(errors[0]?.message).toContain('result.history[1].tool_calls[0]: expected a tool call object');
  });
});

describe('the inferred mapping', () => {
  it('reads the same records through --map as by shape, so a saved mapping changes nothing', () => {
    const line = {
      task_id: 'shop-17',
      steps: [{ thought: 'Search.', action: { tool: 'search', tool_input: { q: 'mug' } }, observation: '3 results' }],
      score: 0.25,
      exit_status: 'submitted',
    };
    const byShape = one(line);
    const mapping = mappingOfInferred(byShape.extra.read_by_shape);
    expect(mapping).toMatchObject({
      messages: { path: 'steps', shape: 'steps' },
      reward: 'score',
      task_id: 'task_id',
      status: 'exit_status',
    });
    const parser = createLineParser('dump.jsonl', { mapping: parseFieldMapping(JSON.stringify(mapping)) });
    const [mapped] = [...parser.push(new TextEncoder().encode(`${JSON.stringify(line)}\n`)), ...parser.end()];
    expect(mapped?.kind).toBe('rollout');
    const record = mapped?.kind === 'rollout' ? (mapped.value.record as Json) : {};
    const { source_format: a, extra: ea, ...restA } = byShape;
    const { source_format: b, extra: eb, ...restB } = record;
    expect(restB).toEqual(restA);
    expect([a, b]).toEqual(['structural', 'mapped']);
    expect(byShape.termination).toBe('finished');
  });
});
