import { describe, expect, it } from 'vitest';
import { fetchedFile, fetchedMissing } from '../../testing/fetched';
import { parseLine } from '../jsonl';
import { convertOtlpExport, convertSpanDocument, convertSpanList, isGenAiSpan, isOtlpExport, isSpanDocument, otlpSpans } from './otelGenai';
import { ConvertError } from './types';

/*
 * Documents written from the GenAI semantic conventions (v1.37 `gen_ai.input.messages` /
 * `gen_ai.output.messages` parts and `execute_tool` spans; the v1.28–1.36 message events; the deprecated
 * `gen_ai.prompt.N` / `gen_ai.completion.N` attributes) and from OpenInference's, one per shape, then
 * published trace files read in place (skipped where they are not fetched).
 */

type Rec = Record<string, unknown> & {
  segments: Array<Record<string, unknown>>;
  steps?: Array<Record<string, unknown>>;
  transcript: Array<Record<string, unknown>>;
  extra: Record<string, unknown>;
};

const ctx = { file: 'traces.json', line: 1 };

/** Every record must load as a v1 rollout. */
function valid(records: Record<string, unknown>[]): Rec[] {
  for (const r of records) {
    const res = parseLine(JSON.stringify(r), 1, 'x');
    expect(res?.kind === 'error' ? res.value : res?.kind).toBe('rollout');
  }
  return records as Rec[];
}

/** OTLP AnyValue for a JS value (ints as int64 strings, as the OTLP JSON encoding writes them). */
function anyValue(v: unknown): unknown {
  if (typeof v === 'string') return { stringValue: v };
  if (typeof v === 'boolean') return { boolValue: v };
  if (typeof v === 'number') return Number.isInteger(v) ? { intValue: String(v) } : { doubleValue: v };
  if (Array.isArray(v)) return { arrayValue: { values: v.map(anyValue) } };
  return v;
}
const kv = (attrs: Record<string, unknown>) => Object.entries(attrs).map(([key, v]) => ({ key, value: anyValue(v) }));
const ns = (ms: number) => String(BigInt(1_760_000_000_000 + ms) * 1_000_000n);

function span(traceId: string, spanId: string, parent: string, name: string, ms: number, attrs: Record<string, unknown>, more = {}) {
  return {
    traceId,
    spanId,
    parentSpanId: parent,
    name,
    kind: 1,
    startTimeUnixNano: ns(ms),
    endTimeUnixNano: ns(ms + 5),
    attributes: kv(attrs),
    status: {},
    ...more,
  };
}
function otlp(spans: unknown[]) {
  return {
    resourceSpans: [
      {
        resource: { attributes: kv({ 'service.name': 'weather-agent' }) },
        scopeSpans: [{ scope: { name: 'opentelemetry.instrumentation.openai_v2', version: '2.1b0' }, spans }],
      },
    ],
  };
}

const T1 = '0af7651916cd43dd8448eb211c80319c';
const ROOT = 'b7ad6b7169203331';

describe('OpenTelemetry GenAI: OTLP JSON with gen_ai.* attributes (semconv 1.37 messages)', () => {
  const userTurn = { role: 'user', parts: [{ type: 'text', content: 'Weather in Paris?' }] };
  const callTurn = {
    role: 'assistant',
    parts: [{ type: 'tool_call', id: 'call_1', name: 'get_weather', arguments: { location: 'Paris' } }],
  };
  const doc = otlp([
    span(T1, ROOT, '', 'invoke_agent weather-agent', 0, { 'gen_ai.operation.name': 'invoke_agent', 'gen_ai.agent.name': 'weather-agent' }),
    span(T1, 'aaaa000000000001', ROOT, 'chat gpt-4o', 1, {
      'gen_ai.operation.name': 'chat',
      'gen_ai.provider.name': 'openai',
      'gen_ai.request.model': 'gpt-4o',
      'gen_ai.response.model': 'gpt-4o-2024-08-06',
      'gen_ai.request.temperature': 0.2,
      'gen_ai.request.max_tokens': 512,
      'gen_ai.response.id': 'chatcmpl-1',
      'gen_ai.response.finish_reasons': ['tool_call'],
      'gen_ai.usage.input_tokens': 87,
      'gen_ai.usage.output_tokens': 18,
      'gen_ai.system_instructions': JSON.stringify([{ type: 'text', content: 'You are a weather assistant.' }]),
      'gen_ai.input.messages': JSON.stringify([userTurn]),
      'gen_ai.output.messages': JSON.stringify([{ ...callTurn, finish_reason: 'tool_call' }]),
    }),
    span(T1, 'aaaa000000000002', ROOT, 'execute_tool get_weather', 10, {
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.name': 'get_weather',
      'gen_ai.tool.call.id': 'call_1',
      'gen_ai.tool.call.arguments': '{"location":"Paris"}',
      'gen_ai.tool.call.result': 'rainy, 57°F',
    }),
    span(T1, 'aaaa000000000003', ROOT, 'chat gpt-4o', 20, {
      'gen_ai.operation.name': 'chat',
      'gen_ai.request.model': 'gpt-4o',
      'gen_ai.response.model': 'gpt-4o-2024-08-06',
      'gen_ai.response.finish_reasons': ['stop'],
      'gen_ai.usage.input_tokens': 120,
      'gen_ai.usage.output_tokens': 14,
      'gen_ai.input.messages': JSON.stringify([
        userTurn,
        callTurn,
        { role: 'tool', parts: [{ type: 'tool_call_response', id: 'call_1', response: 'rainy, 57°F' }] },
      ]),
      'gen_ai.output.messages': JSON.stringify([
        { role: 'assistant', parts: [{ type: 'text', content: 'It is rainy and 57°F in Paris.' }], finish_reason: 'stop' },
      ]),
    }),
  ]);

  it('is detected, and gives one rollout: two generations, one step (the one tool call), model, tokens, messages', () => {
    expect(isOtlpExport(doc)).toBe(true);
    const [r, ...rest] = valid(convertOtlpExport(doc, ctx));
    expect(rest).toEqual([]);
    expect(r).toMatchObject({
      source_format: 'otel-genai',
      rollout_id: T1,
      task_id: 'traces.json:1/traces[0]',
      task: { prompt: 'Weather in Paris?' },
      policy_version: 'gpt-4o-2024-08-06',
      sampling: { temperature: 0.2, max_new_tokens: 512 },
      termination: 'finished',
      reward: null,
      started_at: new Date(1_760_000_000_000).toISOString(),
    });
    expect(r?.segments).toHaveLength(2);
    expect(r?.steps).toHaveLength(1);
    expect(r?.segments[0]).toMatchObject({
      input_ids: [],
      generated_ids: [],
      old_logprobs: [],
      tool_call_id: 'call_1',
      transcript_index: 2,
      extra: { span_id: 'aaaa000000000001', response_id: 'chatcmpl-1', usage: { input_tokens: 87, output_tokens: 18 } },
    });
    expect(r?.segments[1]).toMatchObject({ tool_call_id: null, text: 'It is rainy and 57°F in Paris.', transcript_index: 4 });
    expect(r?.segments[1]?.extra).toMatchObject({ usage: { input_tokens: 120, output_tokens: 14 }, finish_reasons: ['stop'] });
    expect(r?.steps?.[0]).toEqual({
      tool_call_id: 'call_1',
      tool: 'get_weather',
      args: { location: 'Paris' },
      observation: { text: 'rainy, 57°F', status: 'ok' },
      started_at: new Date(1_760_000_000_010).toISOString(),
      ended_at: new Date(1_760_000_000_015).toISOString(),
      extra: { span_id: 'aaaa000000000002' },
    });
    expect(r?.transcript).toEqual([
      { role: 'system', content: 'You are a weather assistant.' },
      { role: 'user', content: 'Weather in Paris?' },
      { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', name: 'get_weather', arguments: '{"location":"Paris"}' }] },
      { role: 'tool', content: 'rainy, 57°F', tool_call_id: 'call_1' },
      { role: 'assistant', content: 'It is rainy and 57°F in Paris.' },
    ]);
    expect(r?.extra).toMatchObject({ paired_by: 'id', resource: { 'service.name': 'weather-agent' } });
    expect(r?.extra.termination_evidence).toMatch(/stop/);
  });

  it('keeps every span under extra.spans, with the attributes no field took', () => {
    const [r] = convertOtlpExport(doc, ctx) as Rec[];
    const spans = r?.extra.spans as Array<Record<string, unknown>>;
    expect(spans.map((s) => s.span_id)).toEqual([ROOT, 'aaaa000000000001', 'aaaa000000000002', 'aaaa000000000003']);
    expect(spans[0]).toMatchObject({
      name: 'invoke_agent weather-agent',
      role: 'agent',
      scope: { name: 'opentelemetry.instrumentation.openai_v2' },
    });
    // The request model is kept as written beside the response model, which names the policy.
    expect(spans[1]?.attributes).toEqual({
      'gen_ai.operation.name': 'chat',
      'gen_ai.provider.name': 'openai',
      'gen_ai.request.model': 'gpt-4o',
    });
    expect(spans[2]?.attributes).toEqual({ 'gen_ai.operation.name': 'execute_tool' });
  });
});

describe('OpenTelemetry GenAI: message events (semconv 1.28–1.36)', () => {
  const T = '5b8efff798038103d269b633813fc60c';
  const ev = (name: string, attrs: Record<string, unknown>, ms: number) => ({ name, timeUnixNano: ns(ms), attributes: kv(attrs) });
  const toolCalls = [{ id: 'call_a', type: 'function', function: { name: 'search', arguments: '{"q":"quarterly report"}' } }];
  const doc = otlp([
    span(
      T,
      '1000000000000001',
      '',
      'chat llama-3-8b',
      0,
      {
        'gen_ai.operation.name': 'chat',
        'gen_ai.request.model': 'llama-3-8b',
        'gen_ai.usage.input_tokens': 300,
        'gen_ai.usage.output_tokens': 20,
        'gen_ai.response.finish_reasons': ['tool_calls'],
      },
      {
        events: [
          ev('gen_ai.system.message', { content: 'You are terse.' }, 0),
          ev('gen_ai.user.message', { content: 'Summarize the quarterly report.' }, 0),
          ev('gen_ai.choice', { index: 0, finish_reason: 'tool_calls', message: JSON.stringify({ tool_calls: toolCalls }) }, 4),
        ],
      },
    ),
    span(T, '1000000000000002', '', 'execute_tool search', 10, {
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.name': 'search',
      'gen_ai.tool.call.id': 'call_a',
    }),
    span(
      T,
      '1000000000000003',
      '',
      'chat llama-3-8b',
      20,
      {
        'gen_ai.operation.name': 'chat',
        'gen_ai.request.model': 'llama-3-8b',
        'gen_ai.usage.input_tokens': 900,
        'gen_ai.usage.output_tokens': 256,
        'gen_ai.response.finish_reasons': ['length'],
      },
      {
        events: [
          ev('gen_ai.system.message', { content: 'You are terse.' }, 20),
          ev('gen_ai.user.message', { content: 'Summarize the quarterly report.' }, 20),
          ev('gen_ai.assistant.message', { tool_calls: JSON.stringify(toolCalls) }, 20),
          // Azure's SDKs pack the body as JSON in gen_ai.event.content.
          ev('gen_ai.tool.message', { 'gen_ai.event.content': JSON.stringify({ id: 'call_a', content: 'Revenue grew 4%.' }) }, 20),
          ev('gen_ai.choice', { index: 0, finish_reason: 'length', message: JSON.stringify({ content: 'The report says revenue' }) }, 24),
        ],
      },
    ),
  ]);

  it('reads the messages from the events; a length finish reason on the last call is budget_exhausted', () => {
    const [r] = valid(convertOtlpExport(doc, ctx));
    expect(r).toMatchObject({ policy_version: 'llama-3-8b', termination: 'budget_exhausted', reward: null });
    expect(r?.segments).toHaveLength(2);
    expect(r?.steps).toHaveLength(1);
    expect(r?.steps?.[0]).toMatchObject({ tool_call_id: 'call_a', tool: 'search', args: { q: 'quarterly report' } });
    expect(r?.segments.map((s) => s.tool_call_id)).toEqual(['call_a', null]);
    expect(r?.segments[1]).toMatchObject({ text: 'The report says revenue', extra: { usage: { input_tokens: 900, output_tokens: 256 } } });
    expect(r?.transcript).toEqual([
      { role: 'system', content: 'You are terse.' },
      { role: 'user', content: 'Summarize the quarterly report.' },
      { role: 'assistant', content: null, tool_calls: [{ id: 'call_a', name: 'search', arguments: '{"q":"quarterly report"}' }] },
      { role: 'tool', content: 'Revenue grew 4%.', tool_call_id: 'call_a' },
      { role: 'assistant', content: 'The report says revenue' },
    ]);
    // Message events became the transcript: they are not repeated under extra.
    const spans = r?.extra.spans as Array<Record<string, unknown>>;
    expect(spans.every((s) => s.events === undefined)).toBe(true);
  });
});

describe('OpenTelemetry GenAI: messages on the gen_ai.client.inference.operation.details event (semconv 1.37+)', () => {
  it('reads input, instructions and output from the event when the span does not carry them', () => {
    const T = 'ffffffffffffffffffffffffffffffff';
    const doc = otlp([
      span(
        T,
        'f000000000000001',
        '',
        'chat claude',
        0,
        {
          'gen_ai.operation.name': 'chat',
          'gen_ai.provider.name': 'aws.bedrock',
          'gen_ai.request.model': 'claude-sonnet',
          'gen_ai.usage.input_tokens': 12,
          'gen_ai.usage.output_tokens': 3,
        },
        {
          events: [
            {
              name: 'gen_ai.client.inference.operation.details',
              timeUnixNano: ns(4),
              attributes: kv({
                'gen_ai.system_instructions': JSON.stringify([{ type: 'text', content: 'Answer in one word.' }]),
                'gen_ai.input.messages': JSON.stringify([{ role: 'user', parts: [{ type: 'text', content: 'Capital of France?' }] }]),
                'gen_ai.output.messages': JSON.stringify([
                  { role: 'assistant', parts: [{ type: 'text', content: 'Paris' }], finish_reason: 'end_turn' },
                ]),
              }),
            },
          ],
        },
      ),
    ]);
    const [r] = valid(convertOtlpExport(doc, ctx));
    expect(r).toMatchObject({ policy_version: 'claude-sonnet', termination: 'finished' });
    expect(r?.segments).toHaveLength(1);
    expect(r?.steps).toBeUndefined();
    expect(r?.segments[0]).toMatchObject({ text: 'Paris', transcript_index: 2, extra: { usage: { input_tokens: 12, output_tokens: 3 } } });
    expect(r?.transcript).toEqual([
      { role: 'system', content: 'Answer in one word.' },
      { role: 'user', content: 'Capital of France?' },
      { role: 'assistant', content: 'Paris' },
    ]);
  });
});

describe('OpenTelemetry GenAI: OpenInference attributes, console-exporter span list', () => {
  const trace = '0x6c80880dbeb609e2ed41e06a6397a0dd';
  const base = (id: string, parent: string | null, name: string, sec: number, attributes: Record<string, unknown>) => ({
    name,
    context: { trace_id: trace, span_id: id, trace_state: '[]' },
    kind: 'SpanKind.INTERNAL',
    parent_id: parent,
    start_time: `2024-05-08T21:46:${String(10 + sec).padStart(2, '0')}.480777Z`,
    end_time: `2024-05-08T21:46:${String(10 + sec).padStart(2, '0')}.980777Z`,
    status: { status_code: 'OK' },
    attributes,
    events: [],
    links: [],
    resource: { attributes: { 'service.name': 'calc' }, schema_url: '' },
  });
  const spans = [
    base('0x7eb5df0046c77cd2', null, 'agent', 0, { 'openinference.span.kind': 'AGENT', 'input.value': 'What is 2+3*4?' }),
    base('0xd9bdedf0df0b7208', '0x7eb5df0046c77cd2', 'llm', 1, {
      'openinference.span.kind': 'LLM',
      'llm.model_name': 'gpt-4o-mini',
      'llm.invocation_parameters': '{"temperature": 0.1, "model": "gpt-4o-mini"}',
      'llm.input_messages.0.message.role': 'system',
      'llm.input_messages.0.message.content': 'Use the calculator.',
      'llm.input_messages.1.message.role': 'user',
      'llm.input_messages.1.message.content': 'What is 2+3*4?',
      'llm.output_messages.0.message.role': 'assistant',
      'llm.output_messages.0.message.tool_calls.0.tool_call.function.name': 'calculator',
      'llm.output_messages.0.message.tool_calls.0.tool_call.function.arguments': '{"expression": "2+3*4"}',
      'llm.token_count.prompt': 40,
      'llm.token_count.completion': 12,
      'llm.token_count.total': 52,
    }),
    base('0x03f3466720f4bfc7', '0x7eb5df0046c77cd2', 'calculator', 2, {
      'openinference.span.kind': 'TOOL',
      'tool.name': 'calculator',
      'input.value': '{"expression": "2+3*4"}',
      'output.value': '14',
    }),
    base('0x1a2b3c4d5e6f7081', '0x7eb5df0046c77cd2', 'llm', 3, {
      'openinference.span.kind': 'LLM',
      'llm.model_name': 'gpt-4o-mini',
      'llm.input_messages.0.message.role': 'system',
      'llm.input_messages.0.message.content': 'Use the calculator.',
      'llm.input_messages.1.message.role': 'user',
      'llm.input_messages.1.message.content': 'What is 2+3*4?',
      'llm.input_messages.2.message.role': 'assistant',
      'llm.input_messages.2.message.tool_calls.0.tool_call.function.name': 'calculator',
      'llm.input_messages.2.message.tool_calls.0.tool_call.function.arguments': '{"expression": "2+3*4"}',
      'llm.input_messages.3.message.role': 'tool',
      'llm.input_messages.3.message.content': '14',
      'llm.output_messages.0.message.role': 'assistant',
      'llm.output_messages.0.message.content': 'The answer is 14.',
      'llm.token_count.prompt': 70,
      'llm.token_count.completion': 6,
    }),
  ];

  it('detects each span; no call ids anywhere: the tool span pairs with the call by order, under a marked locator', () => {
    expect(spans.every((s) => isGenAiSpan(s))).toBe(true);
    const [r] = valid(convertSpanList(spans, ctx));
    expect(r).toMatchObject({
      rollout_id: '6c80880dbeb609e2ed41e06a6397a0dd',
      policy_version: 'gpt-4o-mini',
      sampling: { temperature: 0.1 },
      termination: 'unknown',
      started_at: '2024-05-08T21:46:10.480777Z',
      ended_at: '2024-05-08T21:46:13.980777Z',
    });
    expect(r?.segments).toHaveLength(2);
    expect(r?.steps).toHaveLength(1);
    const id = 'traces.json:1/traces[0]/03f3466720f4bfc7';
    expect(r?.steps?.[0]).toMatchObject({
      tool_call_id: id,
      tool_call_id_is_locator: true,
      tool: 'calculator',
      args: { expression: '2+3*4' },
      observation: { text: '14', status: 'ok' },
    });
    expect(r?.segments[0]).toMatchObject({
      tool_call_id: id,
      tool_call_id_is_locator: true,
      extra: { usage: { input_tokens: 40, output_tokens: 12 } },
    });
    expect(r?.segments[1]).toMatchObject({ tool_call_id: null, text: 'The answer is 14.', transcript_index: 4 });
    expect(r?.transcript.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'tool', 'assistant']);
    expect(r?.transcript[2]).toEqual({
      role: 'assistant',
      content: null,
      tool_calls: [{ name: 'calculator', arguments: '{"expression": "2+3*4"}' }],
    });
    expect(r?.extra).toMatchObject({ paired_by: 'order' });
  });
});

describe("OpenTelemetry GenAI: OpenInference message lists written unflattened (the spec's example shape)", () => {
  it('reads llm.input_messages / llm.output_messages given as lists of dotted-key objects', () => {
    const spans = [
      {
        name: 'llm',
        context: { trace_id: '409df945-e058-4829-b240-cfbdd2ff4488', span_id: '01fa9612-01b8-4358-85d6-e3e067305ec3' },
        span_kind: 'LLM',
        parent_id: null,
        start_time: '2024-01-11T16:45:17.982858-07:00',
        end_time: '2024-01-11T16:45:18.517639-07:00',
        status_code: 'OK',
        attributes: {
          'llm.model_name': 'gpt-4-0613',
          'llm.input_messages': [
            { 'message.role': 'system', 'message.content': 'You are a helpful assistant.' },
            { 'message.role': 'user', 'message.content': 'Weather in Boston?' },
          ],
          'llm.output_messages': [
            {
              'message.role': 'assistant',
              'message.tool_calls': [
                { 'tool_call.function.name': 'get_current_weather', 'tool_call.function.arguments': '{"location": "Boston, MA"}' },
              ],
            },
          ],
        },
      },
    ];
    const [r] = valid(convertSpanList(spans, ctx));
    expect(r?.segments).toHaveLength(1);
    expect(r?.transcript).toEqual([
      { role: 'system', content: 'You are a helpful assistant.' },
      { role: 'user', content: 'Weather in Boston?' },
      { role: 'assistant', content: null, tool_calls: [{ name: 'get_current_weather', arguments: '{"location": "Boston, MA"}' }] },
    ]);
    expect(r).toMatchObject({ policy_version: 'gpt-4-0613', started_at: '2024-01-11T16:45:17.982858-07:00' });
  });
});

describe('OpenTelemetry GenAI: flat spans one per line (deprecated gen_ai.prompt.N / gen_ai.completion.N, Agent Lightning)', () => {
  const resource = { attributes: { 'agentlightning.rollout_id': 'ro-7', 'agentlightning.attempt_id': 'at-1' } };
  const lines = [
    {
      trace_id: 'trace-1',
      span_id: 'root',
      parent_span_id: null,
      name: 'agent.session',
      start_time: 1760000000.0,
      end_time: 1760000003.0,
      attributes: {},
      resource,
    },
    {
      trace_id: 'trace-1',
      span_id: 'llm-1',
      parent_span_id: 'root',
      name: 'openai.chat.completion',
      start_time: 1760000000.5,
      end_time: 1760000001.5,
      resource,
      attributes: {
        'gen_ai.request.type': 'chat',
        'gen_ai.request.model': 'Qwen/Qwen2.5-1.5B-Instruct',
        'gen_ai.prompt.0.role': 'user',
        'gen_ai.prompt.0.content': 'What is 17 * 23?',
        'gen_ai.completion.0.role': 'assistant',
        'gen_ai.completion.0.content': '391',
        'gen_ai.completion.0.finish_reason': 'stop',
        'gen_ai.usage.prompt_tokens': 8,
        'gen_ai.usage.completion_tokens': 2,
        prompt_token_ids: [3838, 374, 220, 1114, 353, 220, 1419, 30],
        response_token_ids: [19503, 16],
      },
    },
    {
      trace_id: 'trace-1',
      span_id: 'reward',
      parent_span_id: 'root',
      name: 'agentlightning.annotation',
      start_time: 1760000002.0,
      end_time: 1760000002.1,
      resource,
      attributes: { 'agentlightning.reward.0.name': 'primary', 'agentlightning.reward.0.value': 1.0 },
    },
  ];
  const text = lines.map((l) => JSON.stringify(l)).join('\n');

  it('gathered across lines: token ids, the model, the reward from the reward span, finished on stop', () => {
    const gathered = text.split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(gathered.map((s) => isGenAiSpan(s))).toEqual([false, true, false]);
    const [r] = valid(convertSpanList(gathered, ctx));
    expect(r).toMatchObject({
      rollout_id: 'ro-7',
      attempt_id: 'at-1',
      policy_version: 'Qwen/Qwen2.5-1.5B-Instruct',
      termination: 'finished',
      reward: 1,
      task: { prompt: 'What is 17 * 23?' },
      started_at: '2025-10-09T08:53:20.000Z',
    });
    expect(r?.segments).toEqual([
      {
        input_ids: [3838, 374, 220, 1114, 353, 220, 1419, 30],
        generated_ids: [19503, 16],
        old_logprobs: [],
        old_logprobs_recorded: false,
        tool_call_id: null,
        text: '391',
        transcript_index: 1,
        extra: {
          span_id: 'llm-1',
          finish_reasons: ['stop'],
          usage: { input_tokens: 8, output_tokens: 2 },
        },
      },
    ]);
    expect(r?.steps).toBeUndefined();
    expect(r?.transcript).toEqual([
      { role: 'user', content: 'What is 17 * 23?' },
      { role: 'assistant', content: '391' },
    ]);
    expect(r?.extra).toMatchObject({
      trace_id: 'trace-1',
      scores: [{ span_id: 'reward', source: 'agentlightning.reward', name: 'primary', value: 1 }],
    });
  });
});

describe('OpenTelemetry GenAI: several traces in one export', () => {
  const chat = (trace: string, id: string, ms: number, answer: string) =>
    span(trace, id, '', 'chat m', ms, {
      'gen_ai.operation.name': 'chat',
      'gen_ai.request.model': 'm-1',
      'gen_ai.usage.input_tokens': 5,
      'gen_ai.usage.output_tokens': 1,
      'gen_ai.output.messages': JSON.stringify([{ role: 'assistant', parts: [{ type: 'text', content: answer }] }]),
    });
  const http = span('cccccccccccccccccccccccccccccccc', 'c000000000000001', '', 'GET /health', 1, { 'http.request.method': 'GET' });
  const doc = otlp([chat('a'.repeat(32), 'a000000000000001', 0, 'A'), http, chat('b'.repeat(32), 'b000000000000001', 2, 'B')]);

  it('gives one rollout per trace id, in order; a trace with no GenAI span is listed, not converted', () => {
    const records = valid(convertOtlpExport(doc, ctx));
    expect(records.map((r) => [r.rollout_id, r.task_id, r.segments.length, r.segments[0]?.text])).toEqual([
      ['a'.repeat(32), 'traces.json:1/traces[0]', 1, 'A'],
      ['b'.repeat(32), 'traces.json:1/traces[1]', 1, 'B'],
    ]);
    expect(records[0]?.extra.other_traces).toEqual([{ trace_id: 'c'.repeat(32), spans: 1 }]);
    expect(otlpSpans(doc)).toHaveLength(3);
  });

  it('a document with no GenAI span at all is an error naming what is missing', () => {
    expect(() => convertOtlpExport(otlp([http]), ctx)).toThrow(ConvertError);
    expect(() => convertOtlpExport(otlp([http]), ctx)).toThrow(/no span carries GenAI/);
  });
});

describe('OpenTelemetry GenAI: pairing tool spans with calls', () => {
  const T = 'dddddddddddddddddddddddddddddddd';
  const out = (parts: unknown[]) => JSON.stringify([{ role: 'assistant', parts }]);
  const tool = (id: string, ms: number, name: string, callId: string | null, result: string) =>
    span(T, id, 'r', `execute_tool ${name}`, ms, {
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.name': name,
      ...(callId ? { 'gen_ai.tool.call.id': callId } : {}),
      'gen_ai.tool.call.result': result,
    });

  it('by id for parallel calls run out of order, by order (same name, next unpaired) for a call without id', () => {
    const doc = otlp([
      span(T, 'r', '', 'invoke_agent', 0, { 'gen_ai.operation.name': 'invoke_agent' }),
      span(T, 'g1', 'r', 'chat', 1, {
        'gen_ai.operation.name': 'chat',
        'gen_ai.output.messages': out([
          { type: 'tool_call', id: 'call_a', name: 'read', arguments: { path: 'a.txt' } },
          { type: 'tool_call', id: 'call_b', name: 'read', arguments: { path: 'b.txt' } },
        ]),
      }),
      tool('t1', 10, 'read', 'call_b', 'B'),
      tool('t2', 11, 'read', 'call_a', 'A'),
      span(T, 'g2', 'r', 'chat', 20, {
        'gen_ai.operation.name': 'chat',
        'gen_ai.output.messages': out([{ type: 'tool_call', name: 'lookup', arguments: '{"k": 1}' }]),
      }),
      tool('t3', 30, 'lookup', null, 'found'),
    ]);
    const [r] = valid(convertOtlpExport(doc, ctx));
    expect(r?.steps?.map((s) => [s.tool_call_id, s.tool, s.args, (s.observation as { text: string }).text])).toEqual([
      ['call_b', 'read', { path: 'b.txt' }, 'B'],
      ['call_a', 'read', { path: 'a.txt' }, 'A'],
      ['traces.json:1/traces[0]/t3', 'lookup', { k: 1 }, 'found'],
    ]);
    expect(r?.segments.map((s) => [s.tool_call_id, s.tool_call_ids])).toEqual([
      ['call_a', ['call_a', 'call_b']],
      ['traces.json:1/traces[0]/t3', undefined],
    ]);
    expect(r?.extra.paired_by).toBe('id+order');
    expect(r?.transcript.map((m) => m.role)).toEqual(['assistant', 'tool', 'tool', 'assistant', 'tool']);
  });

  it('content capture off (no messages): each tool span is a call of the generation before it, by order, with its own id', () => {
    const doc = otlp([
      span(T, 'g1', '', 'chat', 1, { 'gen_ai.operation.name': 'chat', 'gen_ai.request.model': 'm' }),
      tool('t1', 10, 'read', 'call_x', 'X'),
      span(T, 'g2', '', 'chat', 20, { 'gen_ai.operation.name': 'chat', 'gen_ai.request.model': 'm' }),
    ]);
    const [r] = valid(convertOtlpExport(doc, ctx));
    expect(r?.segments.map((s) => s.tool_call_id)).toEqual(['call_x', null]);
    expect(r?.steps?.map((s) => s.tool_call_id)).toEqual(['call_x']);
    expect(r?.extra.paired_by).toBe('order');
  });
});

describe('OpenTelemetry GenAI: span status ERROR', () => {
  const T = 'eeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee';
  const chat = span(T, 'g1', 'r', 'chat', 1, {
    'gen_ai.operation.name': 'chat',
    'gen_ai.response.finish_reasons': ['stop'],
    'gen_ai.output.messages': JSON.stringify([{ role: 'assistant', parts: [{ type: 'text', content: 'done' }] }]),
  });
  const evaluation = {
    name: 'gen_ai.evaluation.result',
    timeUnixNano: ns(9),
    attributes: kv({ 'gen_ai.evaluation.name': 'correctness', 'gen_ai.evaluation.score.value': 0.0 }),
  };

  it('on the root: infra_failure, and a recorded score moves to extra.source_reward', () => {
    const root = span(
      T,
      'r',
      '',
      'invoke_agent',
      0,
      { 'gen_ai.operation.name': 'invoke_agent', 'error.type': 'RateLimitError' },
      {
        status: { code: 2, message: '429 Too Many Requests' },
        events: [evaluation],
      },
    );
    const [r] = valid(convertOtlpExport(otlp([root, chat]), ctx));
    expect(r).toMatchObject({ termination: 'infra_failure', reward: null });
    expect(r?.extra).toMatchObject({
      source_reward: 0,
      scores: [{ source: 'gen_ai.evaluation.result event', name: 'correctness', value: 0 }],
    });
    expect(r?.extra.termination_evidence).toMatch(/429 Too Many Requests: RateLimitError/);
  });

  it('on the root, with a cancellation exception: cancelled', () => {
    const root = span(
      T,
      'r',
      '',
      'invoke_agent',
      0,
      { 'gen_ai.operation.name': 'invoke_agent' },
      {
        status: { code: 'STATUS_CODE_ERROR' },
        events: [{ name: 'exception', timeUnixNano: ns(6), attributes: kv({ 'exception.type': 'asyncio.CancelledError' }) }],
      },
    );
    const [r] = valid(convertOtlpExport(otlp([root, chat]), ctx));
    expect(r?.termination).toBe('cancelled');
  });

  it('on a tool span only: that step is an error, the rollout ends by its last call', () => {
    const root = span(T, 'r', '', 'invoke_agent', 0, { 'gen_ai.operation.name': 'invoke_agent' }, { events: [evaluation] });
    const failing = span(
      T,
      't0',
      'r',
      'execute_tool run',
      0,
      { 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': 'run' },
      {
        status: { code: 2, message: 'exit 1' },
      },
    );
    const [r] = valid(convertOtlpExport(otlp([root, failing, chat]), ctx));
    expect(r).toMatchObject({ termination: 'finished', reward: 0 });
    expect(r?.steps?.[0]).toMatchObject({ tool: 'run', observation: { status: 'error' }, extra: { status_message: 'exit 1' } });
  });
});

describe('OpenTelemetry GenAI: detection', () => {
  it('isOtlpExport: a resourceSpans array of resource groups', () => {
    expect(isOtlpExport({ resourceSpans: [] })).toBe(true);
    expect(isOtlpExport({ resourceSpans: [{ resource: {}, scopeSpans: [] }] })).toBe(true);
    expect(isOtlpExport({ resourceSpans: 'x' })).toBe(false);
    expect(isOtlpExport({ resourceLogs: [] })).toBe(false);
  });

  it('isGenAiSpan: a trace id and a gen_ai.* / llm.* / openinference attribute, in either attribute shape', () => {
    expect(isGenAiSpan({ traceId: 'a', spanId: 'b', attributes: kv({ 'gen_ai.operation.name': 'chat' }) })).toBe(true);
    expect(isGenAiSpan({ context: { trace_id: '0x1' }, attributes: { 'llm.model_name': 'x' } })).toBe(true);
    expect(isGenAiSpan({ context: { trace_id: 'x' }, span_kind: 'LLM', attributes: {} })).toBe(true);
    expect(isGenAiSpan({ traceId: 'a', attributes: kv({ 'http.request.method': 'GET' }) })).toBe(false);
    expect(isGenAiSpan({ attributes: { 'gen_ai.operation.name': 'chat' } })).toBe(false);
    expect(isGenAiSpan({ messages: [] })).toBe(false);
  });
});

/*
 * Published files, read in place from fetched repositories (src/testing/fetched.ts). The facts asserted
 * were read from the files themselves.
 */

const PHOENIX = 'Arize-ai/phoenix';
const PHOENIX_MISSING = fetchedMissing(PHOENIX);
const FIXTURES = 'tests/unit/pxi/evals/online_evals/fixtures';
const json = (repo: string, path: string) => JSON.parse(fetchedFile(repo, path).toString('utf8')) as unknown;

describe.skipIf(PHOENIX_MISSING !== null)(`OpenTelemetry GenAI on Phoenix span exports (OpenInference) ${PHOENIX_MISSING ?? ''}`, () => {
  it('pxi_turn_trace.json: one trace, 9 LLM spans, 8 tool spans paired by id, one failed tool call', () => {
    const path = `${FIXTURES}/pxi_turn_trace.json`;
    const spans = json(PHOENIX, path) as Record<string, unknown>[];
    expect(spans).toHaveLength(18);
    const [r, ...rest] = valid(convertSpanList(spans, { file: path, line: 1 }));
    expect(rest).toEqual([]);
    expect(r).toMatchObject({ rollout_id: 'fixture-trace-1', policy_version: 'claude-fable-5', termination: 'unknown', reward: null });
    expect(r?.segments).toHaveLength(9);
    expect(r?.steps?.map((s) => s.tool)).toEqual([
      'list_datasets',
      'list_datasets',
      'ask_user',
      'create_dataset',
      'add_spans_to_dataset',
      'bash',
      'add_spans_to_dataset',
      'get_route_info',
    ]);
    expect(r?.steps?.map((s) => s.tool_call_id)).toEqual([
      'call-04',
      'call-05',
      'call-06',
      'call-07',
      'call-08',
      'call-09',
      'call-10',
      'call-11',
    ]);
    expect(r?.segments.map((s) => s.tool_call_id)).toEqual([
      'call-04',
      'call-05',
      'call-06',
      'call-07',
      'call-08',
      'call-09',
      'call-10',
      'call-11',
      null,
    ]);
    expect(r?.steps?.[4]?.observation).toMatchObject({ status: 'error' });
    expect(r?.steps?.filter((s) => (s.observation as { status: string }).status === 'error')).toHaveLength(1);
    expect(r?.segments[0]?.extra).toMatchObject({ span_id: 's02', usage: { input_tokens: 32321, output_tokens: 119 } });
    expect(r?.transcript.filter((m) => m.role === 'user').map((m) => m.content)).toEqual([
      'what happened in this trace?',
      'can you save this trace to a dataset?',
    ]);
    expect(r?.extra.paired_by).toBe('id');
    expect(r?.extra.spans).toHaveLength(18);
  });

  it('pxi_turn_subagent_trace.json: the sub-agent inside call_subagent stays inside its tool step', () => {
    const path = `${FIXTURES}/pxi_turn_subagent_trace.json`;
    const spans = json(PHOENIX, path) as Record<string, unknown>[];
    expect(spans).toHaveLength(38);
    const [r] = valid(convertSpanList(spans, { file: path, line: 1 }));
    expect(r?.rollout_id).toBe('fixture-subagent-trace');
    expect(r?.segments.map((s) => s.tool_call_id)).toEqual(['call-02', null]);
    expect(r?.steps?.map((s) => [s.tool_call_id, s.tool])).toEqual([['call-02', 'call_subagent']]);
    expect(r?.extra.spans_inside_tools).toBe(34);
  });

  it('pxi_suggestion_traces.json: three traces; the one whose root span is ERROR is infra_failure', () => {
    const path = `${FIXTURES}/pxi_suggestion_traces.json`;
    const byName = json(PHOENIX, path) as Record<string, Record<string, unknown>[]>;
    expect(Object.keys(byName)).toEqual(['accepted_prompt_edit', 'rejected_prompt_edit', 'mixed_annotation_config']);
    const out = Object.values(byName).map((spans) => valid(convertSpanList(spans, { file: path, line: 1 })));
    expect(out.map((rs) => rs.length)).toEqual([1, 1, 1]);
    const [accepted, rejected, mixed] = out.map((rs) => rs[0] as Rec);
    expect(accepted?.steps?.map((s) => s.tool)).toEqual([
      'read_prompt_instance',
      'edit_prompt_instance',
      'save_prompt',
      'open_llm_evaluator_form',
    ]);
    expect(accepted?.segments).toHaveLength(5);
    expect(accepted?.termination).toBe('unknown');
    expect(rejected?.termination).toBe('infra_failure');
    expect(rejected?.segments).toHaveLength(6);
    // load_skill's span records no tool.id: its step id is a marked locator.
    expect(rejected?.steps?.[0]).toMatchObject({ tool: 'load_skill', tool_call_id_is_locator: true });
    expect(mixed?.steps?.map((s) => s.tool_call_id)).toEqual(['call_0002', 'call_0004', 'call_0006', 'call_0008']);
  });
});

const ANY_AGENT = 'mozilla-ai/any-agent';
const ANY_AGENT_MISSING = fetchedMissing(ANY_AGENT);

/** Read from tests/assets/<FRAMEWORK>_trace.json: call_llm spans, execute_tool names, tool call ids where recorded. */
const ANY_AGENT_FILES: Record<string, { calls: number; tools: string[]; ids?: string[]; firstUsage: [number, number] }> = {
  AGNO: { calls: 3, tools: ['get_current_time', 'write_file'], ids: ['LlAGPjfO0', 'wzCUjvRq4'], firstUsage: [395, 16] },
  GOOGLE: {
    calls: 3,
    tools: ['get_current_time', 'write_file', 'final_output'],
    ids: ['jbUWqgIUr', 'j5pzf0TaM', 'Je755BQAS'],
    firstUsage: [672, 16],
  },
  LANGCHAIN: { calls: 4, tools: ['get_current_time', 'write_file'], firstUsage: [245, 16] },
  LLAMA_INDEX: { calls: 5, tools: ['get_current_time', 'write_file', 'final_output'], firstUsage: [197, 36] },
  OPENAI: { calls: 3, tools: ['get_current_time', 'write_file'], firstUsage: [269, 16] },
  SMOLAGENTS: { calls: 3, tools: ['get_current_time', 'write_file', 'final_answer'], firstUsage: [677, 16] },
  TINYAGENT: { calls: 4, tools: ['get_current_time', 'write_file', 'final_answer'], firstUsage: [328, 16] },
};

describe.skipIf(ANY_AGENT_MISSING !== null)(`OpenTelemetry GenAI on any-agent traces (gen_ai.*) ${ANY_AGENT_MISSING ?? ''}`, () => {
  for (const [framework, facts] of Object.entries(ANY_AGENT_FILES)) {
    it(`${framework}_trace.json: one trace, ${facts.calls} model calls, ${facts.tools.length} tool calls paired by order`, () => {
      const path = `tests/assets/${framework}_trace.json`;
      const doc = json(ANY_AGENT, path) as Record<string, unknown>;
      expect(isSpanDocument(doc)).toBe(true);
      const [r, ...rest] = valid(convertSpanDocument(doc, { file: path, line: 1 }));
      expect(rest).toEqual([]);
      expect(r?.extra.document).toEqual({ final_output: doc.final_output });
      expect(r?.policy_version).toBe('mistral/mistral-small-latest');
      expect(r?.segments).toHaveLength(facts.calls);
      expect(r?.steps?.map((s) => s.tool)).toEqual(facts.tools);
      expect(r?.segments[0]?.extra).toMatchObject({ usage: { input_tokens: facts.firstUsage[0], output_tokens: facts.firstUsage[1] } });
      // Each of the first generations asked for the tool that ran next: every step joins a segment.
      const segmentIds = r?.segments.flatMap((s) => (typeof s.tool_call_id === 'string' ? [s.tool_call_id] : []));
      expect(segmentIds).toEqual(r?.steps?.map((s) => s.tool_call_id));
      if (facts.ids) expect(segmentIds).toEqual(facts.ids);
      else expect(r?.steps?.every((s) => s.tool_call_id_is_locator === true)).toBe(true);
      expect(r?.extra).toMatchObject({ paired_by: 'order', ids_imprecise: true });
      // any-agent records no finish reasons and leaves the agent span's status unset.
      expect(r?.termination).toBe('unknown');
    });
  }
});
