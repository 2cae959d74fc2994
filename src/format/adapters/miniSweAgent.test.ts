import { describe, expect, it } from 'vitest';
import { parseText } from './fixtures';
import { REAL_DATA_MISSING, readReal } from './fixtures/sharedData';
import { miniSweAgentTermination } from './miniSweAgent';

describe('mini-swe-agent exit statuses', () => {
  it('maps the InterruptAgentFlow names; keeps an uncaught exception class as written; none is unknown', () => {
    expect(['Submitted', 'LimitsExceeded', 'TimeExceeded', 'RepeatedFormatError', 'UserInterruption'].map(miniSweAgentTermination)).toEqual(
      ['finished', 'budget_exhausted', 'budget_exhausted', 'invalid_call', 'cancelled'],
    );
    expect(miniSweAgentTermination('RuntimeError')).toBe('RuntimeError');
    expect(miniSweAgentTermination('')).toBe('unknown');
    expect(miniSweAgentTermination(undefined)).toBe('unknown');
  });

  it('a text action answered by a user message is a step with a locator id; a format error (two blocks) is not', () => {
    const messages = [
      { role: 'system', content: 's' },
      { role: 'user', content: 'task' },
      { role: 'assistant', content: 'a\n```bash\nls\n```' },
      { role: 'user', content: '<returncode>0</returncode>' },
      { role: 'assistant', content: '```bash\nls\n```\n```bash\npwd\n```' },
      { role: 'user', content: 'Please always provide EXACTLY ONE action' },
    ];
    const { results } = parseText(JSON.stringify(messages, null, 2), 'run/x.traj.json');
    const r = results[0]?.kind === 'rollout' ? results[0].value.record : undefined;
    expect(r?.steps).toEqual([
      {
        tool_call_id: 'run/x.traj.json:1/messages[2]',
        tool_call_id_is_locator: true,
        tool: 'bash',
        args: { command: 'ls' },
        observation: { text: '<returncode>0</returncode>' },
      },
    ]);
    expect(r?.segments.map((s) => s.tool_call_id)).toEqual(['run/x.traj.json:1/messages[2]', null]);
  });
});

describe.skipIf(REAL_DATA_MISSING !== null)(`mini-swe-agent on real files ${REAL_DATA_MISSING ?? ''}`, () => {
  it('astropy__astropy-12907.traj.json (1.1, tool calls): one rollout, Submitted, every call a step, the submission the artifact', () => {
    const { rollouts, errors, format } = readReal('mini-swe-agent-v2/astropy__astropy-12907.traj.json');
    expect(errors).toEqual([]);
    expect(format).toBe('mini-swe-agent');
    expect(rollouts).toHaveLength(1);
    const r = rollouts[0]?.record;
    expect(r).toMatchObject({
      source_format: 'mini-swe-agent',
      task_id: 'astropy__astropy-12907',
      rollout_id: 'mini-swe-agent-v2/astropy__astropy-12907.traj.json:1',
      policy_version: 'deepseek/deepseek-chat',
      sampling: { temperature: 0, top_p: 1 },
      termination: 'finished',
      reward: null,
    });
    expect(r?.grading?.artifact?.startsWith('--- a/astropy/modeling/separable.py')).toBe(true);
    // 64 calls: 63 answered by tool messages, the last (the submit command) by the exit message.
    expect(r?.segments).toHaveLength(64);
    expect(r?.steps).toHaveLength(64);
    expect(r?.segments[0]?.tool_call_id).toBe('call_00_KVNoGhlWmTJUowwDsUa74968');
    expect(r?.steps?.[0]).toMatchObject({ tool_call_id: 'call_00_KVNoGhlWmTJUowwDsUa74968', tool: 'bash' });
    expect(r?.steps?.at(-1)).toMatchObject({ tool_call_id: 'call_00_0yKPVZ7Jm6cEwsBTs4Lx0555' });
    expect(r?.steps?.at(-1)?.observation?.text?.startsWith('diff --git a/astropy/modeling/separable.py')).toBe(true);
    expect(r?.extra).toMatchObject({ info: { exit_status: 'Submitted', mini_version: '2.3.0' }, trajectory_format: 'mini-swe-agent-1.1' });
  });

  it('the older bare message arrays: one rollout each, text actions as locator steps, no status recorded (unknown)', () => {
    const local = readReal('mini-swe-agent/local.traj.json');
    expect(local.errors).toEqual([]);
    expect(local.rollouts).toHaveLength(1);
    const r = local.rollouts[0]?.record;
    expect(r?.termination).toBe('unknown');
    expect(r?.steps?.map((s) => [s.tool_call_id, s.args])).toEqual([
      ['mini-swe-agent/local.traj.json:1/messages[2]', { command: "echo 'hello world'" }],
      ['mini-swe-agent/local.traj.json:1/messages[4]', { command: 'echo COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT' }],
    ]);
    expect(r?.steps?.[0]?.observation?.text).toBe('<returncode>0</returncode>\n<output>\nhello world\n</output>');
    const issue = readReal('mini-swe-agent/github_issue.traj.json');
    expect(issue.errors).toEqual([]);
    expect(issue.rollouts).toHaveLength(1);
    expect(issue.rollouts[0]?.record.segments).toHaveLength(10);
    expect(issue.rollouts[0]?.record.steps).toHaveLength(10);
  });
});
