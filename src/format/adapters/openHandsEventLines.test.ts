import { describe, expect, it } from 'vitest';
import { fetchedFile, fetchedMissing } from '../../testing/fetched';
import { parseText } from './fixtures';
import { FORMAT_INFO } from './formatInfo';

/*
 * An OpenHands SDK conversation saved as JSON Lines, one event per line (issue 24): all the lines of the
 * file are one conversation, gathered and converted once at the end of the file into one rollout, exactly
 * as the same events in a JSON array are. The events below are written from the SDK's event models
 * (OpenHands/software-agent-sdk, openhands-sdk/openhands/sdk/event/): `kind`, `id`, `timestamp`, `source`.
 */

// biome-ignore lint/suspicious/noExplicitAny: converted records are untyped JSON; the assertions check their shape
type Json = Record<string, any>;

let n = 0;
function event(kind: string, source: string, fields: Json): Json {
  n++;
  return { id: `e-${n}`, timestamp: `2026-08-01T10:00:${String(n).padStart(2, '0')}`, source, ...fields, kind };
}
const text = (t: string) => [{ type: 'text', text: t }];

function conversation(): Json[] {
  n = 0;
  return [
    event('ConversationStateUpdateEvent', 'environment', { key: 'execution_status', value: 'running' }),
    event('SystemPromptEvent', 'agent', {
      system_prompt: { type: 'text', text: 'You are OpenHands agent.' },
      tools: [{ kind: 'TerminalTool', title: 'terminal' }],
      dynamic_context: { type: 'text', text: 'Repository: /workspace/app' },
    }),
    event('MessageEvent', 'user', {
      llm_message: { role: 'user', content: text('Fix the failing test.') },
      activated_skills: [],
      extended_content: [],
    }),
    event('ActionEvent', 'agent', {
      thought: text('Look at the tests first.'),
      reasoning_content: 'The user wants the test fixed.',
      action: { command: 'pytest -x', kind: 'TerminalAction' },
      tool_name: 'terminal',
      tool_call_id: 'call_1',
      tool_call: { id: 'call_1', responses_item_id: null, name: 'terminal', arguments: '{"command": "pytest -x"}', origin: 'completion' },
      llm_response_id: 'resp-1',
      security_risk: 'LOW',
    }),
    event('ObservationEvent', 'environment', {
      tool_name: 'terminal',
      tool_call_id: 'call_1',
      observation: {
        content: text('1 failed'),
        is_error: false,
        command: 'pytest -x',
        exit_code: 1,
        timeout: false,
        metadata: { exit_code: 1, pid: -1 },
        kind: 'TerminalObservation',
      },
      action_id: 'e-4',
    }),
    event('ConversationStateUpdateEvent', 'environment', {
      key: 'stats',
      value: { usage_to_metrics: { default: { model_name: 'litellm_proxy/claude-sonnet-4', accumulated_cost: 0.01 } } },
    }),
    event('ActionEvent', 'agent', {
      thought: [],
      action: { message: 'Fixed.', kind: 'FinishAction' },
      tool_name: 'finish',
      tool_call_id: 'call_2',
      tool_call: { id: 'call_2', name: 'finish', arguments: '{"message": "Fixed."}', origin: 'completion' },
      llm_response_id: 'resp-2',
    }),
    event('ObservationEvent', 'environment', {
      tool_name: 'finish',
      tool_call_id: 'call_2',
      observation: { content: text('Fixed.'), is_error: false, kind: 'FinishObservation' },
      action_id: 'e-7',
    }),
    event('ConversationStateUpdateEvent', 'environment', { key: 'execution_status', value: 'finished' }),
  ];
}

const jsonl = (events: Json[]) => `${events.map((e) => JSON.stringify(e)).join('\n')}\n`;

function read(source: string, name: string, sizes: number[] = []) {
  const { results, format, lines, unsupported } = parseText(source, name, {}, sizes);
  const rollouts = results.flatMap((r) => (r.kind === 'rollout' ? [r.value.record as Json] : []));
  const errors = results.flatMap((r) => (r.kind === 'error' ? [r.value] : []));
  return { results, rollouts, errors, format, lines, unsupported };
}

describe('OpenHands SDK events, one per line', () => {
  it('are one conversation: one rollout at line 1, in any chunk size', () => {
    for (const sizes of [[], [17, 5], [1]]) {
      const { rollouts, errors, format, lines, unsupported } = read(jsonl(conversation()), 'conversation.jsonl', sizes);
      expect(errors).toEqual([]);
      expect(unsupported).toBeNull();
      expect(format).toBe('openhands-events');
      expect(lines).toBe(9);
      expect(rollouts).toHaveLength(1);
      expect(rollouts[0]?.rollout_id).toBe('conversation.jsonl:1');
    }
  });

  it('read as the same events in a JSON array are read (wholeArray: events)', () => {
    expect(FORMAT_INFO['openhands-events'].wholeArray).toBe('events');
    const lines = read(jsonl(conversation()), 'conversation.json');
    const array = read(JSON.stringify(conversation(), null, 2), 'conversation.json');
    const compact = read(JSON.stringify(conversation()), 'conversation.json');
    expect(array.errors).toEqual([]);
    expect(lines.rollouts).toEqual(array.rollouts);
    // An array on one line is one value too, as in a whole file: not one rollout per event.
    expect(compact.rollouts).toEqual(array.rollouts);
  });

  it('reads the newest event shape: dynamic context, the task, TerminalObservation, the model, execution_status', () => {
    const [r] = read(jsonl(conversation()), 'conversation.jsonl').rollouts;
    expect(r?.transcript[0]).toEqual({ role: 'system', content: 'You are OpenHands agent.\n\nRepository: /workspace/app' });
    expect(r?.task).toEqual({ prompt: 'Fix the failing test.' });
    expect(r?.policy_version).toBe('litellm_proxy/claude-sonnet-4');
    expect(r?.segments.map((s: Json) => [s.text, s.tool_call_id])).toEqual([
      ['Look at the tests first.', 'call_1'],
      [undefined, 'call_2'],
    ]);
    expect(r?.transcript[2]).toMatchObject({
      role: 'assistant',
      content: 'Look at the tests first.',
      reasoning: 'The user wants the test fixed.',
    });
    expect(r?.steps[0]).toMatchObject({
      tool_call_id: 'call_1',
      tool: 'terminal',
      args: { command: 'pytest -x' },
      observation: { text: '1 failed', exit_code: 1 },
    });
    expect(r?.termination).toBe('finished');
  });

  it('an observation that failed before running: status error, and metadata -1 is no exit code', () => {
    const events = conversation();
    const obs = events[4] as Json;
    obs.observation = { ...obs.observation, is_error: true, exit_code: null, metadata: { exit_code: -1 } };
    const [r] = read(jsonl(events), 'c.jsonl').rollouts;
    expect(r?.steps[0].observation).toEqual({ text: '1 failed', status: 'error' });
  });

  it('how the run ended: a ConversationErrorEvent, else the last execution_status', () => {
    const ended = (last: Json[], drop = 0) => {
      const events = conversation().slice(0, 6 - drop);
      return read(jsonl([...events, ...last]), 'c.jsonl').rollouts[0];
    };
    const limit = ended([
      event('ConversationErrorEvent', 'environment', { code: 'MaxIterationsReached', detail: 'Agent reached maximum iterations (50).' }),
    ]);
    expect(limit?.termination).toBe('budget_exhausted');
    expect(limit?.extra.error).toEqual({ code: 'MaxIterationsReached', detail: 'Agent reached maximum iterations (50).' });
    expect(ended([event('ConversationErrorEvent', 'environment', { code: 'LLMBadRequestError', detail: 'bad' })])?.termination).toBe(
      'LLMBadRequestError',
    );
    expect(ended([event('ConversationStateUpdateEvent', 'environment', { key: 'execution_status', value: 'stuck' })])?.termination).toBe(
      'stuck',
    );
    // Saved while still running: nothing says how it ended.
    expect(ended([])?.termination).toBe('unknown');
  });

  it('a conversation tree (parent_id): the active branch is read, the abandoned one counted', () => {
    n = 0;
    const user = (id: string, parent: string | null, t: string) => ({
      ...event('MessageEvent', 'user', { llm_message: { role: 'user', content: text(t) } }),
      id,
      parent_id: parent,
    });
    const reply = (id: string, parent: string, t: string) => ({
      ...event('MessageEvent', 'agent', { llm_message: { role: 'assistant', content: text(t) }, llm_response_id: `r-${id}` }),
      id,
      parent_id: parent,
    });
    const events = [
      user('a', null, 'Hi'),
      reply('b', 'a', 'Hello'),
      user('c', 'b', 'Say it in French'),
      reply('d', 'c', 'Bonjour'),
      // navigate_to('b'), then a new turn: c and d are an abandoned branch.
      event('ConversationStateUpdateEvent', 'environment', { key: 'execution_status', value: 'idle', parent_id: 'd' }),
      user('e', 'b', 'Say it in German'),
      reply('f', 'e', 'Hallo'),
    ];
    const [r] = read(jsonl(events), 'tree.jsonl').rollouts;
    expect(r?.transcript.map((m: Json) => m.content)).toEqual(['Hi', 'Hello', 'Say it in German', 'Hallo']);
    expect(r?.extra.events_off_branch).toBe(2);
    // A parent that is not in the file (a slice of a conversation): every event is read, in order.
    const slice = read(jsonl(events.slice(1)), 'slice.jsonl').rollouts[0];
    expect(slice?.transcript).toHaveLength(5);
    expect(slice?.extra?.events_off_branch).toBeUndefined();
  });

  it("a broken line is that line's E_PARSE; the other lines are still one conversation", () => {
    const lines = jsonl(conversation()).split('\n');
    lines.splice(3, 0, '{"kind": "MessageEvent", "source": ');
    const { rollouts, errors } = read(lines.join('\n'), 'c.jsonl');
    expect(errors.map((e) => [e.line, e.code])).toEqual([[4, 'E_PARSE']]);
    expect(rollouts).toHaveLength(1);
    expect(rollouts[0]?.steps).toHaveLength(2);
  });
});

const SDK = 'OpenHands/software-agent-sdk';
const MISSING = fetchedMissing(SDK);

describe.skipIf(MISSING !== null)(`the SDK's own persisted events, as JSON Lines ${MISSING ?? ''}`, () => {
  it('tests/sdk/conversation/goal/fixtures/events.jsonl (a PR-review run) opens as one rollout', () => {
    const path = 'tests/sdk/conversation/goal/fixtures/events.jsonl';
    const { rollouts, errors, format, lines, unsupported } = read(fetchedFile(SDK, path).toString('utf8'), 'events.jsonl');
    expect(unsupported).toBeNull();
    expect(errors).toEqual([]);
    expect(format).toBe('openhands-events');
    expect(lines).toBe(10);
    expect(rollouts).toHaveLength(1);
    const r = rollouts[0] as Json;
    expect(r.rollout_id).toBe('events.jsonl:1');
    // The agent's LLM, from the ConversationStateUpdateEvent `stats` (usage id "default").
    expect(r.policy_version).toBe('litellm_proxy/minimax-m2.7');
    // Two ActionEvents (two LLM responses), each a segment with its terminal call.
    expect(r.segments.map((s: Json) => s.tool_call_id)).toEqual(['chatcmpl-tool-9d0341c7a033ae28', 'chatcmpl-tool-9fa678118a57807d']);
    expect(r.segments[0].text.startsWith('<think>Let me analyze the task.')).toBe(true);
    expect(r.transcript[0].reasoning.startsWith('Let me analyze the task.')).toBe(true);
    // The first call was refused before it ran (is_error, exit_code null, metadata.exit_code -1).
    expect(r.steps.map((s: Json) => [s.tool, s.observation.status, s.observation.exit_code])).toEqual([
      ['terminal', 'error', undefined],
      ['terminal', undefined, 1],
    ]);
    expect(r.steps[0].observation.text.startsWith('Cannot execute multiple commands at once.')).toBe(true);
    // Line 7 answers a call whose ActionEvent the trimmed fixture left out: transcript only, no step.
    expect(r.transcript.filter((m: Json) => m.role === 'tool')).toHaveLength(3);
    // The slice ends while the run is still `running`: how it ended is not recorded.
    expect(r.termination).toBe('unknown');
  });
});
