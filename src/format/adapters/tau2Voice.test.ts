import { describe, expect, it } from 'vitest';
import { fetchedFile, fetchedMissing } from '../../testing/fetched';
import type { LineResult } from '../jsonl';
import { convertValue } from './convertValue';
import voiceResults from './fixtures/tau2-voice/results.json?raw';
import { createLineParser } from './lineParser';

// biome-ignore lint/suspicious/noExplicitAny: converted records are untyped JSON; the assertions check their shape
type Json = Record<string, any>;

function parse(text: string): { format: string | null; rollouts: Json[]; errors: Json[] } {
  const parser = createLineParser('results.json');
  const results: LineResult[] = [...parser.push(new TextEncoder().encode(text)), ...parser.end()];
  return {
    format: parser.format,
    rollouts: results.flatMap((r) => (r.kind === 'rollout' ? [r.value.record as Json] : [])),
    errors: results.flatMap((r) => (r.kind === 'error' ? [r.value as Json] : [])),
  };
}

/** The fixture with its first simulation changed by `edit`. */
function edited(edit: (sim: Json, file: Json) => void): string {
  const file = JSON.parse(voiceResults);
  edit(file.simulations[0], file);
  return JSON.stringify(file);
}

/*
 * fixtures/tau2-voice/results.json: a full-duplex telecom simulation written for Trajscope from tau2's `Tick`
 * (src/tau2/data_model/message.py) and the full-duplex orchestrator's way of filling it (tool calls stripped off
 * the chunk into `agent_tool_calls`/`user_tool_calls`, executed in the same tick). 14 ticks of 0.2 s: the
 * orchestrator's greeting at tick 0, the user speaking at 1-3, the agent at 5-6 (a lookup call at 6) and 7-8 (a
 * new utterance id), a user tool at 9, the user at 10, the agent audio only (no transcript) at 11-12 while the
 * user barges in at 12-13.
 */
describe('tau2 voice: ticks read as the conversation', () => {
  const { format, rollouts, errors } = parse(voiceResults);
  const r = rollouts[0] as Json;

  it('one rollout of the tau2 format, its termination, reward and policy as the text path reads them', () => {
    expect(format).toBe('tau2-bench');
    expect(errors).toEqual([]);
    expect(rollouts).toHaveLength(1);
    expect(r).toMatchObject({
      task_id: '[mobile_data_issue]airplane_mode_on',
      rollout_id: 'voice-sim-1',
      policy_version: 'openai:gpt-realtime',
      termination: 'finished',
      reward: 1,
    });
    // Per-tick detail no message holds (turn-taking actions, wall-clock times) stays with the ticks.
    expect(r.extra.ticks).toHaveLength(14);
  });

  it('each utterance is one message at the tick it began; tool calls and results where they ran', () => {
    expect(r.transcript.map((m: Json) => [m.role, m.content, m.ticks])).toEqual([
      ['assistant', 'Hi! How can I help you today?', [0, 0]],
      ['user', 'My mobile data is not working. My number is 555-123-2002.', [1, 3]],
      ['assistant', 'Let me look that up.', [5, 6]],
      ['assistant', null, [6, 6]],
      ['tool', '{"customer_id": "C1001"}', [6, 6]],
      ['assistant', 'Could you check your status bar?', [7, 8]],
      ['user', null, [9, 9]],
      ['tool', 'Airplane Mode: ON', [9, 9]],
      ['user', 'It says airplane mode is on.', [10, 10]],
      ['assistant', null, [11, 12]],
      ['user', 'Okay, thanks! ###STOP###', [12, 13]],
    ]);
    expect(r.transcript[1]).toMatchObject({
      seconds: [0.2, 0.8],
      utterance_ids: ['u-1'],
      // What the agent's side transcribed of the user's audio (tick.user_transcript), beside what was said.
      user_transcript: 'My mobile data is not working. My number is 555-123-2002.',
    });
    expect(r.transcript[6].tool_calls).toEqual([{ id: 'call_2', name: 'check_status_bar', arguments: '{}', requestor: 'user' }]);
    // Speech the file holds no text for says so; no text is made up for it.
    expect(r.transcript[9]).toMatchObject({ content: null, audio_only: true });
    expect(r.transcript.filter((m: Json) => m.audio_only === true)).toHaveLength(1);
  });

  it("the agent's utterances and calls are segments with their ticks; the orchestrator's greeting is context", () => {
    expect(r.segments.map((s: Json) => [s.text, s.tool_call_id, s.transcript_index, s.ticks, s.seconds, s.audio_only])).toEqual([
      ['Let me look that up.', null, 2, [5, 6], [1, 1.4], undefined],
      [undefined, 'call_1', 3, [6, 6], [1.2, 1.4], undefined],
      ['Could you check your status bar?', null, 5, [7, 8], [1.4, 1.8], undefined],
      [undefined, null, 9, [11, 12], [2.2, 2.6], true],
    ]);
  });

  it("the agent's call is a step of the policy, the user's a step with actor user, each at its tick", () => {
    expect(r.steps).toEqual([
      {
        tool_call_id: 'call_1',
        tool: 'get_customer_by_phone',
        args: { phone_number: '555-123-2002' },
        observation: { text: '{"customer_id": "C1001"}' },
        ticks: [6, 6],
        seconds: [1.2, 1.4],
      },
      {
        tool_call_id: 'call_2',
        tool: 'check_status_bar',
        args: {},
        observation: { text: 'Airplane Mode: ON' },
        actor: 'user',
        ticks: [9, 9],
        seconds: [1.8, 2],
      },
    ]);
  });

  it("seconds come from the run's audio_native_config when the ticks do not carry their length, else are absent", () => {
    const fromRun = parse(
      edited((sim, file) => {
        for (const t of sim.ticks) delete t.tick_duration_seconds;
        file.info.audio_native_config.tick_duration_seconds = 0.5;
      }),
    ).rollouts[0] as Json;
    expect(fromRun.segments[0]).toMatchObject({ ticks: [5, 6], seconds: [2.5, 3.5] });
    const none = parse(
      edited((sim, file) => {
        for (const t of sim.ticks) delete t.tick_duration_seconds;
        delete file.info.audio_native_config;
      }),
    ).rollouts[0] as Json;
    expect(none.segments[0].ticks).toEqual([5, 6]);
    expect(none.segments[0].seconds).toBeUndefined();
  });

  it('recorded messages win over ticks, as SimulationRun.get_messages chooses', () => {
    const text = parse(
      edited((sim) => {
        sim.messages = [
          { role: 'user', content: 'Hello' },
          { role: 'assistant', content: 'Hi there.' },
        ];
      }),
    ).rollouts[0] as Json;
    expect(text.segments.map((s: Json) => s.text)).toEqual(['Hi there.']);
    expect(text.segments[0].ticks).toBeUndefined();
  });

  it('a malformed tick is an error naming its field', () => {
    const badId = parse(edited((sim) => (sim.ticks[3].tick_id = 'three')));
    expect(badId.rollouts).toEqual([]);
    expect(badId.errors[0]?.message).toContain('simulations[0].ticks[3].tick_id: expected an integer');
    const badCalls = parse(edited((sim) => (sim.ticks[6].agent_tool_calls = { id: 'call_1' })));
    expect(badCalls.errors[0]?.message).toContain('simulations[0].ticks[6].agent_tool_calls: expected an array');
    const badChunk = parse(edited((sim) => (sim.ticks[2].user_chunk = 'hello')));
    expect(badChunk.errors[0]?.message).toContain('simulations[0].ticks[2].user_chunk: expected a message chunk object or null');
    const badResult = parse(edited((sim) => (sim.ticks[6].agent_tool_results[0].role = 'assistant')));
    expect(badResult.errors[0]?.message).toContain('simulations[0].ticks[6].agent_tool_results[0].role: expected "tool"');
    const notTicks = parse(edited((sim) => (sim.ticks = 'none')));
    expect(notTicks.errors[0]?.message).toContain('simulations[0].ticks: expected an array of ticks');
  });
});

/*
 * The published voice simulations: sierra-research/tau2-bench tests/test_voice/test_interaction_metrics/testdata/
 * experiment (a run in the dir format, gpt-realtime-2 against the voice user simulator, 0.2 s ticks), read in
 * place from the fetched snapshot (HEAD a2c0247), each simulation with the run's `info` as the directory reader
 * gives it. These files were stripped for the metrics tests: their chunks keep `contains_speech` and turn-taking
 * but no text and no tool calls, so every utterance is audio only and there are no steps.
 * Counted by hand (python over the files, not this code): a run of consecutive ticks whose agent_chunk
 * (user_chunk) has contains_speech true is one agent (user) utterance; the role string is the utterances
 * ordered by first tick, the agent's first on a tie.
 */
const REPO = 'sierra-research/tau2-bench';
const MISSING = fetchedMissing(REPO);
if (MISSING) console.info(MISSING);

const EXPERIMENT = 'tests/test_voice/test_interaction_metrics/testdata/experiment';
const PUBLISHED = [
  {
    id: '49b22f0c-4a56-41c5-922f-bc2a56e53a23',
    task: '40',
    ticks: 973,
    firstAgent: [88, 99],
    firstSeconds: [17.6, 20],
    lastAgent: [886, 965],
    roles: 'UAUAAUAAUAUAUAAUAAUAUAAUAU',
  },
  {
    id: '7c6a3e3e-ac3f-406f-aea9-8cacb0a2e680',
    task: '98',
    ticks: 1810,
    firstAgent: [91, 93],
    firstSeconds: [18.2, 18.8],
    lastAgent: [1753, 1809],
    roles: 'UAAAUAUAUAUAUAUAUAUAUAUAAUAAUAUAUAU',
  },
  {
    id: 'cd9c5ed2-9751-4c86-8dac-8a895a332e41',
    task: '20',
    ticks: 1340,
    firstAgent: [20, 91],
    firstSeconds: [4, 18.4],
    lastAgent: [1320, 1339],
    roles: 'AUAUAAUAUAUAUUAUAUAUAAUAUAUAUAUAU',
  },
];

describe.skipIf(MISSING !== null)(`tau2 voice simulations published in ${REPO} ${MISSING ?? ''}`, () => {
  const read = (id: string): Json[] => {
    const info = JSON.parse(fetchedFile(REPO, `${EXPERIMENT}/results.json`).toString('utf8')).info;
    const sim = JSON.parse(fetchedFile(REPO, `${EXPERIMENT}/simulations/${id}.json`).toString('utf8'));
    const results = convertValue('tau2-bench', { info, simulations: [sim] }, { file: `${id}.json`, line: 1 });
    expect(results.filter((x) => x.kind === 'error')).toEqual([]);
    return results.flatMap((x) => (x.kind === 'rollout' ? [x.value.record as Json] : []));
  };

  it.each(PUBLISHED)('$id (task $task): one segment per agent utterance, audio only, no steps', (p) => {
    const [r, ...rest] = read(p.id);
    expect(rest).toEqual([]);
    expect(r).toMatchObject({ task_id: p.task, rollout_id: p.id, termination: 'finished', reward: null });
    expect(r?.extra.ticks).toHaveLength(p.ticks);
    const roles = (r?.transcript ?? []).map((m: Json) => (m.role === 'assistant' ? 'A' : 'U')).join('');
    expect(roles).toBe(p.roles);
    const agentTurns = p.roles.split('').filter((c) => c === 'A').length;
    expect(r?.segments).toHaveLength(agentTurns);
    expect(r?.segments[0]).toMatchObject({ ticks: p.firstAgent, audio_only: true, tool_call_id: null });
    expect(r?.segments.at(-1).ticks).toEqual(p.lastAgent);
    // Seconds from the run's audio_native_config (0.2 s ticks): the ticks carry no length of their own.
    expect(r?.segments[0].seconds).toEqual(p.firstSeconds);
    expect(r?.segments.every((s: Json) => s.audio_only === true && s.text === undefined)).toBe(true);
    expect(r?.transcript.every((m: Json) => m.content === null && m.audio_only === true)).toBe(true);
    expect(r?.steps).toBeUndefined();
  });

  it('15, 19 and 17 agent turns in all: the counts the metrics tests see as agent speech', () => {
    expect(PUBLISHED.map((p) => read(p.id)[0]?.segments.length)).toEqual([15, 19, 17]);
  });
});
