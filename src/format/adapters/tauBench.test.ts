import { describe, expect, it } from 'vitest';
import { fetchedFile, fetchedMissing, fetchedPaths } from '../../testing/fetched';
import type { LineResult } from '../jsonl';
import { createLineParser } from './lineParser';

// biome-ignore lint/suspicious/noExplicitAny: converted records are untyped JSON; the assertions check their shape
type Json = Record<string, any>;

function parse(name: string, bytes: Uint8Array): { format: string | null; rollouts: Json[]; errors: unknown[] } {
  const parser = createLineParser(name);
  const results: LineResult[] = [...parser.push(bytes), ...parser.end()];
  const rollouts = results.flatMap((r) => (r.kind === 'rollout' ? [r.value.record as Json] : []));
  return { format: parser.format, rollouts, errors: results.filter((r) => r.kind === 'error') };
}

/**
 * W_ORPHAN_CALL's pairing (src/analysis/stepChecks.ts), checked here on the converted record (src/format tests
 * import no analysis): every call a segment names has a step, every policy step (no `actor`) a segment, and
 * the user's steps name no segment at all (lint leaves them unpaired: stepChecks.test.ts).
 */
function pairing(r: Json): { unpairedCalls: string[]; unpairedPolicySteps: string[]; userStepsOnSegments: string[] } {
  const called = new Set<string>(r.segments.flatMap((s: Json) => s.tool_call_ids ?? (s.tool_call_id === null ? [] : [s.tool_call_id])));
  const steps: Json[] = r.steps ?? [];
  const stepped = new Set(steps.map((s) => s.tool_call_id));
  return {
    unpairedCalls: [...called].filter((id) => !stepped.has(id)),
    unpairedPolicySteps: steps.filter((s) => s.actor === undefined && !called.has(s.tool_call_id)).map((s) => s.tool_call_id),
    userStepsOnSegments: steps.filter((s) => s.actor === 'user' && called.has(s.tool_call_id)).map((s) => s.tool_call_id),
  };
}

const PAIRED = { unpairedCalls: [], unpairedPolicySteps: [], userStepsOnSegments: [] };

/*
 * A tau2 `Results` written from tau2's data model (src/tau2/data_model/message.py: a `UserMessage` may carry
 * `tool_calls`, each answered by a `ToolMessage` with the call's `id` and `requestor: "user"`): the shape of
 * a telecom simulation, where the simulated user runs tools on their own phone.
 */
const TELECOM = {
  info: { agent_info: { llm: 'gpt-4.1' } },
  tasks: [],
  simulations: [
    {
      id: 'sim-1',
      task_id: '[mobile_data_issue]airplane_mode_on',
      termination_reason: 'user_stop',
      reward_info: { reward: 1.0 },
      messages: [
        { role: 'assistant', content: 'Hi! How can I help you today?', raw_data: null, usage: null },
        { role: 'user', content: 'My mobile data does not work. My number is 555-123-2002.' },
        {
          role: 'assistant',
          content: null,
          tool_calls: [{ id: 'c-1', name: 'get_customer_by_phone', arguments: { phone_number: '555-123-2002' }, requestor: 'assistant' }],
        },
        { role: 'tool', id: 'c-1', content: '{"customer_id": "C1001"}', requestor: 'assistant', error: false },
        { role: 'assistant', content: 'Please check your network status.' },
        {
          role: 'user',
          content: null,
          tool_calls: [{ id: 'u-1', name: 'check_network_status', arguments: {}, requestor: 'user' }],
        },
        { role: 'tool', id: 'u-1', content: 'Airplane Mode: ON', requestor: 'user', error: false },
        {
          role: 'user',
          content: null,
          // tau2 ids are the model's: a later call may reuse one, on either side.
          tool_calls: [{ id: 'c-1', name: 'toggle_airplane_mode', arguments: {}, requestor: 'user' }],
        },
        { role: 'tool', id: 'c-1', content: 'Airplane Mode is now OFF.', requestor: 'user', error: false },
        { role: 'user', content: 'It works now, thanks! ###STOP###' },
      ],
    },
  ],
};

describe('tau2: the simulated user runs tools too', () => {
  it('a user\'s tool call is a step with actor "user" and no segment; the agent\'s steps name no actor', () => {
    const { format, rollouts } = parse('results.json', new TextEncoder().encode(JSON.stringify(TELECOM, null, 2)));
    expect(format).toBe('tau2-bench');
    const [r] = rollouts;
    expect(r?.segments.map((s: Json) => s.tool_call_id)).toEqual(['c-1', null]);
    expect(r?.steps).toEqual([
      {
        tool_call_id: 'c-1',
        tool: 'get_customer_by_phone',
        args: { phone_number: '555-123-2002' },
        observation: { text: '{"customer_id": "C1001"}' },
      },
      { tool_call_id: 'u-1', tool: 'check_network_status', args: {}, observation: { text: 'Airplane Mode: ON' }, actor: 'user' },
      {
        tool_call_id: 'c-1#2',
        source_tool_call_id: 'c-1',
        tool: 'toggle_airplane_mode',
        args: {},
        observation: { text: 'Airplane Mode is now OFF.' },
        actor: 'user',
      },
    ]);
    // The user's calls stay in the transcript as the user's message, where the views show them.
    expect(r?.transcript[5]).toMatchObject({ role: 'user', tool_calls: [{ id: 'u-1', name: 'check_network_status' }] });
  });

  it("the agent's steps pair with its generations; the user's steps with none", () => {
    const { rollouts } = parse('results.json', new TextEncoder().encode(JSON.stringify(TELECOM, null, 2)));
    expect(pairing(rollouts[0] as Json)).toEqual(PAIRED);
  });
});

/*
 * Real tau2 output: `tau2 run` results published in yoheinakajima/activegraph-tau2-bench (runs/<run>/tau2_output/
 * results.json, at the snapshot's HEAD 2d8e2c2), read in place from the fetched snapshot. The
 * counts below were read from the files' messages: calls by `assistant` messages and by `user` messages, every
 * one answered by a tool message of that requestor.
 */
const REPO = 'yoheinakajima/activegraph-tau2-bench';
const MISSING = fetchedMissing(REPO);
if (MISSING) console.info(MISSING);

describe.skipIf(MISSING !== null)(`tau2 runs published in ${REPO} ${MISSING ?? ''}`, () => {
  const read = (path: string) => parse(path.split('/').pop() ?? path, fetchedFile(REPO, path));

  it('telecom: 4 agent steps and the 5 tools the user ran on the phone, in order, with all paired', () => {
    const { format, rollouts, errors } = read('runs/20260601-041221-091109/tau2_output/results.json');
    expect(format).toBe('tau2-bench');
    expect(errors).toEqual([]);
    expect(rollouts).toHaveLength(1);
    const r = rollouts[0] as Json;
    expect(r.task_id).toBe('[mobile_data_issue]airplane_mode_on|user_abroad_roaming_enabled_off[PERSONA:None]');
    expect(r.steps.map((s: Json) => [s.actor ?? 'policy', s.tool])).toEqual([
      ['policy', 'get_customer_by_phone'],
      ['policy', 'get_details_by_id'],
      ['policy', 'get_details_by_id'],
      ['policy', 'get_details_by_id'],
      ['user', 'check_network_status'],
      ['user', 'check_status_bar'],
      ['user', 'toggle_airplane_mode'],
      ['user', 'toggle_roaming'],
      ['user', 'run_speed_test'],
    ]);
    expect(r.steps[6]).toMatchObject({
      tool_call_id: 'call_14cbHW1TFaowBg5gohMYRbq8',
      observation: { text: 'Airplane Mode is now OFF.\nStatus Bar: 📶⁴ Excellent | 5G | 📱 Data Enabled | 🔋 80%' },
    });
    // Every agent step still pairs with its generation: the 4 segments that made a call name it.
    const called = r.segments.flatMap((s: Json) => (s.tool_call_id === null ? [] : [s.tool_call_id]));
    expect(called).toEqual(r.steps.filter((s: Json) => s.actor === undefined).map((s: Json) => s.tool_call_id));
    // 10 assistant messages, the first the orchestrator's fixed greeting (context, no generation).
    expect(r.segments).toHaveLength(9);
    expect(pairing(r)).toEqual(PAIRED);
  });

  it('every published tau2_output: 98 agent steps and 8 user steps, all paired', () => {
    const paths = fetchedPaths(REPO, /\/tau2_output\/results\.json$/);
    expect(paths).toHaveLength(16);
    let agent = 0;
    const user: string[] = [];
    for (const path of paths) {
      const { format, rollouts, errors } = read(path);
      expect(format, path).toBe('tau2-bench');
      expect(errors, path).toEqual([]);
      for (const r of rollouts) {
        for (const s of r.steps ?? []) {
          if (s.actor === 'user') user.push(s.tool);
          else agent++;
        }
      }
      for (const r of rollouts) expect(pairing(r), path).toEqual(PAIRED);
    }
    expect(agent).toBe(98);
    // The mock domain's user checks and dismisses notifications; the telecom user works the phone.
    expect(user).toEqual([
      'check_notifications',
      'check_notifications',
      'dismiss_notification',
      'check_network_status',
      'check_status_bar',
      'toggle_airplane_mode',
      'toggle_roaming',
      'run_speed_test',
    ]);
  });
});
