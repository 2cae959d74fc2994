import { describe, expect, it } from 'vitest';
import type { LineResult, ParseError } from '../jsonl';
import { detectTraceDirectory } from './detect';
import type { ReadFile } from './layouts';
import { readTraceDirectory } from './read';

// biome-ignore lint/suspicious/noExplicitAny: converted records are untyped JSON; the assertions check their shape
type Json = Record<string, any>;

/** A directory held in memory: each path's JSON value, or a string taken as the file's raw text. */
function memory(tree: Record<string, unknown>): { files: string[]; read: ReadFile } {
  const read: ReadFile = async (path) => {
    if (!(path in tree)) return { error: 'absent' };
    const v = tree[path];
    return { bytes: new TextEncoder().encode(typeof v === 'string' ? v : JSON.stringify(v, null, 2)) };
  };
  return { files: Object.keys(tree).sort(), read };
}

async function readAll(tree: Record<string, unknown>, prefix = '') {
  const { files, read } = memory(tree);
  const found = await detectTraceDirectory(files, read);
  if (!found) throw new Error('no layout found');
  const results: LineResult[] = [];
  const traces = await readTraceDirectory(found, read, (r) => results.push(r), prefix);
  const rollouts = results.flatMap((r) =>
    r.kind === 'rollout' ? [{ file: r.value.file, line: r.value.line, record: r.value.record as Json }] : [],
  );
  const errors: ParseError[] = results.flatMap((r) => (r.kind === 'error' ? [r.value] : []));
  return { traces, rollouts, errors };
}

/*
 * An OpenHands SDK conversation as the SDK persists it (openhands-sdk conversation/state.py, event_store.py,
 * event/*.py): `base_state.json` (the state, secrets redacted) and one file per event, the shapes of the
 * events of a published conversation (software-agent-sdk at 0bb2b16, .pr/event-json-to-openai-messages).
 */
const EVENTS: Json[] = [
  { id: 'e0', source: 'agent', kind: 'SystemPromptEvent', system_prompt: { type: 'text', text: 'You are OpenHands agent.' }, tools: [] },
  { id: 'e1', source: 'user', kind: 'MessageEvent', llm_message: { role: 'user', content: [{ type: 'text', text: 'Run pwd.' }] } },
  {
    id: 'e2',
    source: 'agent',
    kind: 'ActionEvent',
    thought: [],
    action: { command: 'pwd', kind: 'TerminalAction' },
    tool_name: 'terminal',
    tool_call_id: 'call_1',
    tool_call: { id: 'call_1', name: 'terminal', arguments: '{"command":"pwd"}', origin: 'completion' },
    llm_response_id: 'chatcmpl-1',
  },
  {
    id: 'e3',
    source: 'environment',
    kind: 'ObservationEvent',
    tool_name: 'terminal',
    tool_call_id: 'call_1',
    observation: {
      content: [{ type: 'text', text: '/workspace' }],
      is_error: false,
      exit_code: 0,
      timeout: false,
      kind: 'TerminalObservation',
    },
    action_id: 'e2',
  },
  {
    id: 'e4',
    source: 'agent',
    kind: 'MessageEvent',
    llm_message: { role: 'assistant', content: [{ type: 'text', text: 'It is /workspace.' }] },
  },
];
const BASE_STATE = {
  id: '38868567-ae62-4dcb-a567-8b534b99575c',
  agent: { llm: { model: 'openai/gpt-4o-mini', api_key: '**********', temperature: 0, top_p: 1, max_output_tokens: 16384 } },
  execution_status: 'finished',
  stats: { usage_to_metrics: {} },
};
const eventFile = (i: number) => `conv/events/event-${String(i).padStart(5, '0')}-0d063a22-20db-40db-93f0-4edbc42b2ff${i}.json`;
/** The conversation's files; `state` null leaves base_state.json out. */
function conversation(events: readonly unknown[] = EVENTS, state: unknown = BASE_STATE): Record<string, unknown> {
  const tree: Record<string, unknown> = Object.fromEntries(events.map((e, i) => [eventFile(i), e]));
  if (state !== null) tree['conv/base_state.json'] = state;
  return tree;
}

describe('an OpenHands SDK conversation folder', () => {
  it('is one rollout named by its base_state.json; the state says how it ended and which model ran', async () => {
    const { traces, rollouts, errors } = await readAll(conversation());
    expect(errors).toEqual([]);
    expect(traces).toBe(1);
    expect(rollouts).toHaveLength(1);
    const [r] = rollouts;
    expect(r?.file).toBe('conv/base_state.json');
    expect(r?.line).toBe(1);
    expect(r?.record).toMatchObject({
      source_format: 'openhands-events',
      rollout_id: 'conv/base_state.json:1',
      policy_version: 'openai/gpt-4o-mini',
      sampling: { temperature: 0, top_p: 1, max_new_tokens: 16384 },
      termination: 'finished',
      reward: null,
      task: { prompt: 'Run pwd.' },
    });
    expect(r?.record.segments).toHaveLength(2);
    expect(r?.record.steps).toEqual([
      expect.objectContaining({
        tool_call_id: 'call_1',
        tool: 'terminal',
        observation: expect.objectContaining({ text: '/workspace', exit_code: 0 }),
      }),
    ]);
    // The state is read for its status and model only: the redacted key is not copied anywhere.
    expect(JSON.stringify(r?.record)).not.toContain('api_key');
  });

  it('without base_state.json: named by its first event, and a reply without finish says nothing of how it ended', async () => {
    const { rollouts } = await readAll(conversation(EVENTS, null));
    expect(rollouts[0]?.file).toBe(eventFile(0));
    expect(rollouts[0]?.record.termination).toBe('unknown');
    expect(rollouts[0]?.record.policy_version).toBeUndefined();
  });

  it('an event file that is not JSON is its own error; the others are still the conversation', async () => {
    const tree = conversation();
    tree[eventFile(3)] = '{"id": "e3", "kind": "ObservationEv';
    const { rollouts, errors } = await readAll(tree, 'runs/');
    expect(errors).toEqual([
      { file: `runs/${eventFile(3)}`, line: 1, code: 'E_PARSE', message: expect.stringMatching(/^not valid JSON: /) },
    ]);
    expect(rollouts).toHaveLength(1);
    expect(rollouts[0]?.file).toBe('runs/conv/base_state.json');
    expect(rollouts[0]?.record.segments).toHaveLength(2);
    expect(rollouts[0]?.record.steps).toBeUndefined();
  });

  it('events past a gap in the numbering are not read, and one error says so', async () => {
    const tree = conversation();
    delete tree[eventFile(2)];
    const { rollouts, errors } = await readAll(tree);
    expect(errors).toEqual([
      {
        file: eventFile(3),
        line: 1,
        code: 'E_PARSE',
        message: "2 event files past a gap (event-00002 is missing): not read, as the SDK's event log does not read them",
      },
    ]);
    expect(rollouts[0]?.record.segments).toHaveLength(0);
  });
});

/*
 * A Harbor trial as Harbor writes it (src/harbor/models/trial/paths.py, models/trial/result.py `TrialResult`,
 * verifier/verifier.py): the agent's ATIF log in agent/trajectory.json, the verifier's rewards in result.json.
 */
const ATIF = {
  schema_version: 'ATIF-v1.5',
  session_id: '0b5a4f8e-6f0d-4a51-9d1e-2c7b4f0d9e11',
  agent: { name: 'terminus-2', version: '2.0.0', model_name: 'openai/gpt-4o' },
  steps: [
    { step_id: 1, source: 'user', message: 'Create hello.txt with "Hello, world!" as the content.' },
    {
      step_id: 2,
      source: 'agent',
      message: 'Writing the file.',
      tool_calls: [
        { tool_call_id: 'call_1', function_name: 'bash_command', arguments: { keystrokes: 'echo "Hello, world!" > hello.txt\n' } },
      ],
      observation: { results: [{ source_call_id: 'call_1', content: 'root@c:/app# ' }] },
    },
    {
      step_id: 3,
      source: 'agent',
      message: 'Done.',
      tool_calls: [{ tool_call_id: 'call_2', function_name: 'mark_task_complete', arguments: {} }],
      observation: { results: [{ source_call_id: 'call_2', content: 'Task marked complete.' }] },
    },
  ],
};
function trialResult(trial: string, more: Json = {}): Json {
  return {
    id: '7e847602-99fb-42ca-a32f-23ea46842352',
    task_name: 'hello-world',
    trial_name: trial,
    trial_uri: `file:///jobs/2026-01-01__00-00-00/${trial}`,
    task_id: { path: 'examples/tasks/hello-world' },
    task_checksum: '0',
    config: {},
    agent_info: { name: 'terminus-2', version: '2.0.0' },
    verifier_result: { rewards: { reward: 1.0 } },
    exception_info: null,
    ...more,
  };
}
const JOB = 'jobs/2026-01-01__00-00-00';

describe('a Harbor job', () => {
  it('one rollout per trial: the ATIF log, with the task and reward of its result.json', async () => {
    const { traces, rollouts, errors } = await readAll({
      [`${JOB}/config.json`]: {},
      [`${JOB}/result.json`]: { n_total_trials: 2 },
      [`${JOB}/hello-world__AbC/agent/trajectory.json`]: ATIF,
      [`${JOB}/hello-world__AbC/result.json`]: trialResult('hello-world__AbC'),
      [`${JOB}/hello-world__XyZ/agent/trajectory.json`]: { ...ATIF, session_id: 'c4e1' },
      [`${JOB}/hello-world__XyZ/result.json`]: trialResult('hello-world__XyZ', { verifier_result: { rewards: { reward: 0 } } }),
    });
    expect(errors).toEqual([]);
    expect(traces).toBe(2);
    expect(rollouts.map((r) => r.file)).toEqual([
      `${JOB}/hello-world__AbC/agent/trajectory.json`,
      `${JOB}/hello-world__XyZ/agent/trajectory.json`,
    ]);
    expect(rollouts.map((r) => [r.record.rollout_id, r.record.task_id, r.record.reward])).toEqual([
      ['0b5a4f8e-6f0d-4a51-9d1e-2c7b4f0d9e11', 'hello-world', 1],
      ['c4e1', 'hello-world', 0],
    ]);
    expect(rollouts[0]?.record.steps.map((s: Json) => s.tool)).toEqual(['bash_command', 'mark_task_complete']);
    expect(rollouts[0]?.record.extra.harbor_trial).toEqual({
      trial_name: 'hello-world__AbC',
      id: '7e847602-99fb-42ca-a32f-23ea46842352',
      rewards: { reward: 1 },
    });
  });

  it("the reward: `reward`, else a task's one named reward; several others, or none, is null", async () => {
    const reward = async (more: Json) =>
      (await readAll({ 't/agent/trajectory.json': ATIF, 't/result.json': trialResult('t', more) })).rollouts[0]?.record;
    expect((await reward({ verifier_result: { rewards: { score: 0.75 } } }))?.reward).toBe(0.75);
    const two = await reward({ verifier_result: { rewards: { tests: 1, style: 0 } } });
    expect(two?.reward).toBeNull();
    expect(two?.extra.harbor_trial.rewards).toEqual({ tests: 1, style: 0 });
    const failed = await reward({
      verifier_result: null,
      exception_info: { exception_type: 'AgentTimeoutError', exception_message: 'timed out' },
    });
    expect(failed?.reward).toBeNull();
    expect(failed?.extra.harbor_trial).toMatchObject({ exception_type: 'AgentTimeoutError', exception_message: 'timed out' });
    // A trial not yet verified (no result.json): the ATIF log alone, as when the file is read by itself.
    const running = (await readAll({ 't/agent/trajectory.json': ATIF, 't/agent/recording.cast': '' })).rollouts[0]?.record;
    expect(running).toMatchObject({ task_id: 't/agent/trajectory.json:1', reward: null });
  });

  it('a trial whose agent wrote no trajectory is one error naming its result.json and how it ended', async () => {
    const { rollouts, errors } = await readAll({
      'j/t1/agent/trajectory.json': ATIF,
      'j/t1/result.json': trialResult('t1'),
      'j/t2/result.json': trialResult('t2', { exception_info: { exception_type: 'EnvironmentStartTimeoutError' } }),
      'j/t2/trial.log': '',
    });
    expect(rollouts).toHaveLength(1);
    expect(errors).toEqual([
      {
        file: 'j/t2/result.json',
        line: 1,
        code: 'E_SCHEMA',
        message:
          'a Harbor trial with no agent/trajectory.json: its agent wrote no ATIF trajectory (the trial ended with EnvironmentStartTimeoutError)',
      },
    ]);
  });
});

/*
 * A tau2-bench run saved as a directory (tau2 src/tau2/data_model/simulation.py `Results.save(format="dir")`):
 * results.json without its simulations, and `simulations/<id>.json`, one `SimulationRun` each.
 */
function simulation(id: string, reward: number, termination: string): Json {
  return {
    id,
    task_id: '7',
    start_time: '2026-06-30T11:40:29',
    end_time: '2026-06-30T11:41:02',
    duration: 33,
    termination_reason: termination,
    reward_info: { reward },
    trial: 0,
    messages: [
      { role: 'assistant', content: 'Hi! How can I help you today?', raw_data: null, usage: null },
      { role: 'user', content: 'Cancel reservation ABC123.' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: 'c-1', name: 'cancel_reservation', arguments: { reservation_id: 'ABC123' }, requestor: 'assistant' }],
      },
      { role: 'tool', id: 'c-1', content: '{"status": "cancelled"}', requestor: 'assistant', error: false },
      { role: 'assistant', content: 'Your reservation is cancelled.' },
    ],
  };
}
const RESULTS = {
  timestamp: '2026-06-30T11:40:00',
  info: { git_commit: 'a2c0247', agent_info: { llm: 'gpt-4.1', llm_args: { temperature: 0 } }, user_info: { llm: 'gpt-4.1' } },
  tasks: [],
  simulation_index: [
    { id: 'sim-1', task_id: '7', trial: 0, reward: 1 },
    { id: 'sim-2', task_id: '7', trial: 1, reward: 0 },
  ],
};

describe('a tau2-bench results directory', () => {
  it("one rollout per simulation file, with the run's info; the reward is the simulation's reward_info", async () => {
    const { traces, rollouts, errors } = await readAll({
      'run/results.json': RESULTS,
      'run/simulations/sim-1.json': simulation('sim-1', 1, 'user_stop'),
      'run/simulations/sim-2.json': simulation('sim-2', 0, 'max_steps'),
    });
    expect(errors).toEqual([]);
    expect(traces).toBe(2);
    expect(rollouts.map((r) => [r.file, r.record.rollout_id, r.record.reward, r.record.termination])).toEqual([
      ['run/simulations/sim-1.json', 'sim-1', 1, 'finished'],
      ['run/simulations/sim-2.json', 'sim-2', 0, 'budget_exhausted'],
    ]);
    expect(rollouts[0]?.record).toMatchObject({
      source_format: 'tau2-bench',
      task_id: '7',
      policy_version: 'gpt-4.1',
      environment_version: 'a2c0247',
    });
    expect(rollouts[0]?.record.steps.map((s: Json) => s.tool)).toEqual(['cancel_reservation']);
  });

  it('a simulation its index lists but the directory lacks is one error on results.json', async () => {
    const { rollouts, errors } = await readAll({
      'run/results.json': RESULTS,
      'run/simulations/sim-1.json': simulation('sim-1', 1, 'user_stop'),
    });
    expect(rollouts).toHaveLength(1);
    expect(errors).toEqual([
      {
        file: 'run/results.json',
        line: 1,
        code: 'E_SCHEMA',
        message: 'simulation_index lists simulation sim-2, but simulations/sim-2.json is not in the directory',
      },
    ]);
  });
});
