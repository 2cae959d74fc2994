import { describe, expect, it } from 'vitest';
import { convertNemoGym } from './nemoGym';

/*
 * Termination from each NeMo Gym agent's own evidence. The records are small, written from the shapes the
 * agents write (NVIDIA-NeMo/Gym at 07d6b0d; docs/formats.md, NeMo Gym, cites each agent's file and field).
 */

type Item = Record<string, unknown>;

const message = (text: string): Item => ({
  type: 'message',
  role: 'assistant',
  status: 'completed',
  content: [{ type: 'output_text', text, annotations: [] }],
});
const call = (id: string, name: string, args: Record<string, unknown>): Item => ({
  type: 'function_call',
  call_id: id,
  name,
  arguments: JSON.stringify(args),
});
const output = (id: string, text: string): Item => ({ type: 'function_call_output', call_id: id, output: text });
const reasoning = (text: string): Item => ({ type: 'reasoning', summary: [{ type: 'summary_text', text }] });

/** A rollout line: the task as input, `output` as the agent loop wrote it, and any fields the agent adds. */
function rollout(items: Item[], fields: Record<string, unknown> = {}, response: Record<string, unknown> = {}) {
  return {
    responses_create_params: { input: [{ role: 'user', content: 'Do the task.' }] },
    response: { id: 'resp_1', model: 'policy', object: 'response', output: items, ...response },
    reward: 1,
    _ng_task_index: 0,
    _ng_rollout_index: 0,
    ...fields,
  };
}

function termination(row: Record<string, unknown>): unknown {
  const [record] = convertNemoGym(row, { file: 'example_rollouts.jsonl', line: 1 });
  return record?.termination;
}

/** Two turns of work before the last model call: a multi-turn rollout. */
const work = [call('c1', 'search', { q: 'x' }), output('c1', 'found x'), call('c2', 'search', { q: 'y' }), output('c2', 'found y')];

describe('NeMo Gym termination: finishing calls', () => {
  it("stirrup_agent's `finish` call ends the rollout finished, unanswered as the agent leaves it", () => {
    const row = rollout([...work, call('c3', 'finish', { reason: 'Task completed successfully.', paths: ['out.xlsx'] })], {
      agent_ref: { name: 'gdpval_stirrup_agent' },
    });
    expect(termination(row)).toBe('finished');
    expect(termination(rollout([...work, call('c3', 'abandon_task_finish', { reason: 'inputs missing' })]))).toBe('finished');
  });

  it("finance_agent's done tool `submit_final_result` ends it finished, its output recorded before the loop exits", () => {
    const row = rollout([...work, call('c3', 'submit_final_result', { results: 'Answer: 42' }), output('c3', '{"success": true}')], {
      agent_ref: { name: 'finance_agent' },
    });
    expect(termination(row)).toBe('finished');
  });

  it("mini_swe_agent_2's submit command ends it finished; a submit that failed (answered) did not end it", () => {
    const submit = call('c3', 'bash', { command: 'echo COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT && cat patch.txt' });
    const fields = { agent_ref: { name: 'mini_swe_agent_2' } };
    expect(termination(rollout([...work, submit], fields, { status: 'completed' }))).toBe('finished');
    const failed = [...work, submit, output('c3', '<returncode>1</returncode>\n<output>\ncat: patch.txt: No such file</output>')];
    // Not by its submit: with no status either, nothing records why it stopped.
    expect(termination(rollout(failed, fields, {}))).toBe('unknown');
  });

  it('a single model call is the whole rollout: its call is the answer (tool_simulation_agent, simple_agent with max_steps 1)', () => {
    expect(termination(rollout([call('c1', 'exec_command', { cmd: 'ls -la /workspace' })]))).toBe('finished');
    const click = rollout([
      reasoning('The red circle is at the left.'),
      call('c1', 'click', { x: 123, y: 511 }),
      output('c1', '{"x":123,"y":511}'),
    ]);
    expect(termination(click)).toBe('finished');
  });
});

describe('NeMo Gym termination: status and incomplete_details', () => {
  it('`status: completed` with an assistant message and no call ends finished (simple_agent stop)', () => {
    expect(termination(rollout([...work, message('The answer is 42.')], {}, { status: 'completed' }))).toBe('finished');
  });

  it('a multi-turn rollout ending on a tool output with no stop recorded is unknown; `status: completed` puts it in the signal, said as read from the status (issue 29)', () => {
    expect(termination(rollout(work, {}, {}))).toBe('unknown');
    const [completed] = convertNemoGym(rollout(work, {}, { status: 'completed' }), { file: 'example_rollouts.jsonl', line: 1 });
    expect(completed?.termination).toBe('finished');
    expect((completed?.extra as Record<string, unknown> | undefined)?.termination_evidence).toBe(
      'response.status "completed", no stop recorded',
    );
    // A stop the rollout records is read before the status, and names no evidence of the status.
    const [stopped] = convertNemoGym(rollout([...work, message('Done.')], {}, { status: 'completed' }), {
      file: 'example_rollouts.jsonl',
      line: 1,
    });
    expect(stopped?.termination).toBe('finished');
    expect((stopped?.extra as Record<string, unknown> | undefined)?.termination_evidence).toBeUndefined();
    const [cut] = convertNemoGym(rollout(work, {}, { status: 'completed', incomplete_details: { reason: 'max_output_tokens' } }), {
      file: 'example_rollouts.jsonl',
      line: 1,
    });
    expect(cut?.termination).toBe('budget_exhausted');
  });

  it('`incomplete_details.reason: max_output_tokens` is the generation budget: budget_exhausted', () => {
    const row = rollout([reasoning('Let me think about')], {}, { incomplete_details: { reason: 'max_output_tokens' } });
    expect(termination(row)).toBe('budget_exhausted');
  });

  it('another incomplete reason, or `status: incomplete` without one, says nothing of a budget: unknown', () => {
    expect(termination(rollout([message('I')], {}, { incomplete_details: { reason: 'content_filter' } }))).toBe('unknown');
    expect(termination(rollout([message('I')], {}, { status: 'incomplete' }))).toBe('unknown');
  });

  it('`status: failed` / `cancelled` and `response.error` keep their meaning', () => {
    expect(termination(rollout([message('x')], {}, { status: 'failed' }))).toBe('infra_failure');
    expect(termination(rollout([message('x')], {}, { status: 'cancelled' }))).toBe('cancelled');
    expect(termination(rollout([message('x')], {}, { error: { code: 'server_error', message: 'boom' } }))).toBe('infra_failure');
  });
});

describe('NeMo Gym termination: explicit max-steps and stop evidence', () => {
  it("finance_agent's `response.metadata.stop_reason`", () => {
    const stopped = (reason: string) => rollout(work, {}, { metadata: { stop_reason: reason, steps: '50' } });
    expect(termination(stopped('max_turns'))).toBe('budget_exhausted');
    expect(termination(stopped('max_time'))).toBe('budget_exhausted');
    expect(termination(stopped('done_tool'))).toBe('finished');
    expect(termination(stopped('error'))).toBe('infra_failure');
  });

  it("gymnasium_agent's `terminated` / `truncated` (max_steps sets truncated), whatever the output ends on", () => {
    const episode = [message('Action: push up'), { type: 'message', role: 'user', content: 'You pushed the box.' }];
    expect(termination(rollout(episode, { terminated: false, truncated: true }))).toBe('budget_exhausted');
    expect(termination(rollout(episode, { terminated: true, truncated: false }))).toBe('finished');
    expect(termination(rollout([message('hit')], { terminated: false, truncated: true }))).toBe('budget_exhausted');
  });

  it('harbor_agent (terminus-2): n_episodes reaching max_turns, an error flag, or a confirmed task_complete', () => {
    const flags = { agent_timeout_error: 0, context_length_exceeded_error: 0, memory_limit_exceeded_error: 0 };
    const answer = (done: boolean) => message(`{"analysis": "a", "plan": "p", "commands": [], "task_complete": ${done}}`);
    const cmd = (n: number) => [
      answer(false),
      call(`c${n}`, 'bash_command', { keystrokes: 'ls\n' }),
      output(`c${n}`, 'New Terminal Output:'),
    ];
    const meta = (episodes: number) => ({
      config: { agent: { kwargs: { max_turns: 20 } } },
      agent_result: { metadata: { n_episodes: episodes } },
    });
    expect(termination(rollout([...cmd(1), ...cmd(2)], { ...flags, metadata: meta(20) }))).toBe('budget_exhausted');
    expect(termination(rollout([...cmd(1), ...cmd(2)], { ...flags, agent_timeout_error: 1, metadata: meta(2) }))).toBe('budget_exhausted');
    const confirmed = [...cmd(1), answer(true), output('c9', 'Are you sure you want to mark the task as complete?'), answer(true)];
    expect(termination(rollout(confirmed, { ...flags, metadata: meta(3) }))).toBe('finished');
    expect(termination(rollout([...cmd(1), ...cmd(2)], { ...flags, metadata: meta(2) }))).toBe('unknown');
  });

  it("osworld_agent's `verifier_metadata`: its termination reason, or `osworld_finished` in older rollouts", () => {
    const os = (meta: Record<string, unknown>) => rollout([message('```python\npyautogui.click(1, 2)\n```')], { verifier_metadata: meta });
    expect(termination(os({ osworld_finished: false, osworld_error: null, osworld_termination_reason: 'max_steps' }))).toBe(
      'budget_exhausted',
    );
    expect(termination(os({ osworld_finished: true, osworld_error: null, osworld_termination_reason: 'agent_done' }))).toBe('finished');
    expect(termination(os({ osworld_finished: false, osworld_error: null }))).toBe('budget_exhausted');
    expect(termination(os({ osworld_finished: false, osworld_error: 'env.evaluate() failed: x' }))).toBe('infra_failure');
  });

  it("opencode_sandboxed_agent's `opencode_finished`", () => {
    expect(termination(rollout(work, { opencode_finished: true }))).toBe('finished');
    expect(termination(rollout(work, { opencode_finished: false }))).toBe('unknown');
  });
});

describe('NeMo Gym termination: no evidence', () => {
  it('a multi-turn rollout that ends on a tool output, an observation, a lone reasoning item or nothing is unknown', () => {
    expect(termination(rollout(work))).toBe('unknown');
    expect(termination(rollout([message('x'), { type: 'message', role: 'user', content: 'go on' }]))).toBe('unknown');
    expect(termination(rollout([reasoning('There are 3 reports.')]))).toBe('unknown');
    expect(termination(rollout([]))).toBe('unknown');
  });

  it('unknown keeps the reward the source wrote (only infra_failure / cancelled move it to extra)', () => {
    const [record] = convertNemoGym(rollout(work), { file: 'example_rollouts.jsonl', line: 1 });
    expect(record).toMatchObject({ termination: 'unknown', reward: 1 });
  });
});
