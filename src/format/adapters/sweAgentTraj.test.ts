import { describe, expect, it } from 'vitest';
import { contextMessages } from '../additions';
import { FIXTURES, parseText, rolloutsOf, segmentNumbers, transcriptOf } from './fixtures';
import { REAL_DATA_MISSING, readReal } from './fixtures/sharedData';
import { sweAgentTermination } from './sweAgentTraj';

describe('SWE-agent .traj', () => {
  it('maps a trajectory: instance id, run config, submission as the artifact, history as the transcript', () => {
    const [r] = rolloutsOf('sweTraj');
    expect(r).toMatchObject({
      source_format: 'swe-agent-traj',
      task_id: 'django__django-11099',
      rollout_id: `${FIXTURES.sweTraj.name}:1`,
      policy_version: 'claude-sonnet-4-20250514',
      sampling: { temperature: 0, top_p: 1 },
      task: { prompt: 'UsernameValidator allows trailing newline in usernames.' },
      termination: 'finished',
      grading: { artifact: expect.stringContaining("+    regex = r'^[\\w.@+-]+\\Z'") },
    });
    expect(transcriptOf(r)?.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'user', 'assistant']);
  });

  it('records no reward: SWE-agent does not grade (lint then says the reward is missing)', () => {
    expect(rolloutsOf('sweTraj')[0]?.reward).toBeNull();
  });

  it('one text segment per step, with the exact query as its context; each executed action a step with a locator id', () => {
    const [r] = rolloutsOf('sweTraj');
    const loc = `${FIXTURES.sweTraj.name}:1`;
    expect(r?.segments.map((s) => [s.text, s.tool_call_id, contextMessages(s)?.length])).toEqual([
      ['Let me find the validator.\n\n```\nfind_file validators.py\n```', `${loc}/trajectory[0]`, 2],
      ['Replace $ by \\Z.\n\n```\nsubmit\n```', `${loc}/trajectory[1]`, 4],
    ]);
    expect(r?.segments[0]?.extra).toEqual({
      action: 'find_file validators.py',
      observation: 'Found 1 matches for "validators.py":\n/testbed/django/contrib/auth/validators.py',
      thought: 'Let me find the validator.',
      execution_time: 0.41,
      state: { open_file: 'n/a', working_dir: '/testbed' },
      extra_info: {},
    });
    // No call id is recorded without function calling: the step's id is its location, marked as such.
    expect(r?.steps?.[0]).toEqual({
      tool_call_id: `${loc}/trajectory[0]`,
      tool_call_id_is_locator: true,
      tool: 'find_file',
      args: { command: 'find_file validators.py' },
      observation: { text: 'Found 1 matches for "validators.py":\n/testbed/django/contrib/auth/validators.py' },
    });
    expect(r?.steps?.map((s) => s.tool)).toEqual(['find_file', 'submit']);
    expect(segmentNumbers(rolloutsOf('sweTraj'))).toEqual([]);
  });

  it('keeps info, replay_config and environment under extra', () => {
    expect(rolloutsOf('sweTraj')[0]?.extra).toMatchObject({
      info: { exit_status: 'submitted', model_stats: { api_calls: 2 }, swe_agent_version: '1.1.0' },
      replay_config: expect.stringContaining('"per_instance_cost_limit": 3.0'),
      environment: 'main',
    });
  });

  it('a RetryAgent file: one rollout per attempt (not the repeated top level), each ended by its own exit status', () => {
    const rollouts = rolloutsOf('sweRetryTraj');
    expect(rollouts.map((r) => [r.rollout_id.split(':').pop(), r.task_id, r.termination, r.grading?.artifact])).toEqual([
      ['1/attempts[0]', 'astropy__astropy-12907', 'budget_exhausted', 'diff --git a/x b/x\n'],
      ['1/attempts[1]', 'astropy__astropy-12907', 'invalid_call', undefined],
    ]);
    expect(rollouts[0]?.extra).toMatchObject({ retry_info: { best_attempt_idx: 0 }, info: { exit_status: 'submitted (exit_cost)' } });
  });

  it('without a readable replay_config the instance id comes from the file name; a non-message query stays raw', () => {
    const traj = {
      trajectory: [{ response: 'ls', query: [{}] }],
      history: [],
      info: { exit_status: 'early_exit' },
      replay_config: '{broken',
    };
    const [r] = parseText(JSON.stringify(traj), 'runs/sympy__sympy-20590.traj').results;
    expect(r?.kind === 'rollout' && r.value.record).toMatchObject({ task_id: 'sympy__sympy-20590', termination: 'early_exit' });
    // SWE-agent's default query `[{}]` holds no message: kept raw rather than dropped.
    expect(r?.kind === 'rollout' && r.value.record.segments).toEqual([
      { input_ids: [], generated_ids: [], old_logprobs: [], tool_call_id: null, text: 'ls', extra: { query: [{}] } },
    ]);
  });

  it('a file without a trajectory array is E_SCHEMA naming it', () => {
    const [r] = parseText('{"info": {}, "history": []}', 'x.traj').results;
    expect(r?.value).toMatchObject({ code: 'E_SCHEMA', message: expect.stringContaining('trajectory: expected an array') });
  });
});

describe('sweAgentTermination', () => {
  it.each([
    ['submitted', 'finished'],
    ['exit_command', 'finished'],
    ['exit_forfeit', 'finished'],
    ['exit_total_execution_time', 'budget_exhausted'],
    ['exit_command_timeout', 'budget_exhausted'],
    ['exit_context', 'budget_exhausted'],
    ['exit_cost', 'budget_exhausted'],
    ['exit_format', 'invalid_call'],
    ['exit_api', 'infra_failure'],
    ['exit_environment_error', 'infra_failure'],
    ['exit_error', 'infra_failure'],
    ['submitted (exit_cost)', 'budget_exhausted'],
    ['submitted (exit_environment_error)', 'infra_failure'],
    ['submitted (exit_something_new)', 'submitted (exit_something_new)'],
    ['early_exit', 'early_exit'],
    [null, 'unknown'],
    ['', 'unknown'],
  ])('%s -> %s', (status, expected) => {
    expect(sweAgentTermination(status)).toBe(expected);
  });
});

describe.skipIf(REAL_DATA_MISSING !== null)(`SWE-agent on real files ${REAL_DATA_MISSING ?? ''}`, () => {
  it('with function calling (marshmallow-1867): call ids from the history, one step per trajectory step', () => {
    const { rollouts, errors } = readReal('swe-agent-fc-marshmallow/marshmallow-code__marshmallow-1867.traj');
    expect(errors).toEqual([]);
    expect(rollouts).toHaveLength(1);
    const r = rollouts[0]?.record;
    expect(r).toMatchObject({
      task_id: 'marshmallow-code__marshmallow-1867',
      policy_version: 'gpt-4o',
      termination: 'finished',
      reward: null,
    });
    expect(r?.segments).toHaveLength(11);
    expect(r?.steps?.[0]).toEqual({
      tool_call_id: 'call_cyI71DYnRdoLHWwtZgIaW2wr',
      tool: 'create',
      args: { filename: 'reproduce.py' },
      observation: { text: '[File: reproduce.py (1 lines total)]\r\n1:' },
    });
    expect(r?.steps?.at(-1)).toMatchObject({ tool_call_id: 'call_submit', tool: 'submit' });
    expect(r?.segments.every((s) => s.tool_call_id?.startsWith('call_'))).toBe(true);
    const transcript = transcriptOf(r);
    expect(transcript?.[2]?.tool_calls?.[0]).toMatchObject({ id: 'call_cyI71DYnRdoLHWwtZgIaW2wr', name: 'create' });
    expect(transcript?.[3]?.tool_call_id).toBe('call_cyI71DYnRdoLHWwtZgIaW2wr');
  });

  it.each([
    ['swe-agent-pydicom/pydicom__pydicom-1458.traj', 'pydicom__pydicom-1458', 12, 'create'],
    ['swe-agent-ctf-eps/eps.traj', 'eps', 14, 'file'],
  ])('without function calling (%s): every action and observation a step with a locator id', (path, task, n, firstTool) => {
    const { rollouts, errors } = readReal(path);
    expect(errors).toEqual([]);
    expect(rollouts).toHaveLength(1);
    const r = rollouts[0]?.record;
    expect(r).toMatchObject({ task_id: task, termination: 'finished' });
    expect(r?.steps).toHaveLength(n);
    expect(r?.steps?.[0]).toMatchObject({ tool_call_id: `${path}:1/trajectory[0]`, tool_call_id_is_locator: true, tool: firstTool });
    expect(r?.steps?.at(-1)?.tool).toBe('submit');
    expect(r?.segments.map((s) => s.tool_call_id)).toEqual(r?.steps?.map((s) => s.tool_call_id));
  });
});
