import { describe, expect, it } from 'vitest';
import { recordTranscript } from '../additions';
import { REAL_DATA_MISSING, readReal } from './fixtures/sharedData';

describe.skipIf(REAL_DATA_MISSING !== null)(`Harbor ATIF on real files ${REAL_DATA_MISSING ?? ''}`, () => {
  it('terminus-2 with token ids: each agent step a real segment (prompt, completion, logprobs), each call a step', () => {
    const path = 'harbor-golden/hello-world-context-summarization.trajectory.json';
    const { rollouts, errors, format } = readReal(path);
    expect(errors).toEqual([]);
    expect(format).toBe('harbor-atif');
    expect(rollouts).toHaveLength(1);
    const r = rollouts[0]?.record;
    expect(r).toMatchObject({
      rollout_id: 'NORMALIZED_SESSION_ID',
      task_id: `${path}:1`,
      policy_version: 'openai/gpt-4o',
      termination: 'unknown',
      reward: null,
    });
    expect(r?.segments).toHaveLength(7);
    const first = r?.segments[0];
    expect([first?.input_ids.length, first?.input_ids[0], first?.input_ids.at(-1)]).toEqual([682, 100, 781]);
    expect([first?.generated_ids.length, first?.generated_ids[0], first?.generated_ids.at(-1)]).toEqual([60, 1000, 1059]);
    expect(first?.old_logprobs.slice(0, 2)).toEqual([-0.1, -0.2]);
    expect(first?.old_logprobs).toHaveLength(60);
    expect([r?.segments[3]?.input_ids.length, r?.segments[3]?.generated_ids.length]).toEqual([1700, 420]);
    expect(r?.steps?.map((s) => s.tool_call_id)).toEqual([
      'call_0_1',
      'call_1_1',
      'call_2_1',
      'call_3_1',
      'call_4_1',
      'call_5_task_complete',
      'call_6_task_complete',
    ]);
    expect(r?.steps?.[0]).toMatchObject({ tool: 'bash_command', args: { keystrokes: 'mkdir test_dir\n', duration: 0.1 } });
  });

  it('without token ids: text segments; an agent step without calls keeps its parse-error feedback in the transcript', () => {
    const { rollouts, errors } = readReal('harbor-golden/hello-world-invalid-json.trajectory.json');
    expect(errors).toEqual([]);
    const r = rollouts[0]?.record;
    expect(r?.segments).toHaveLength(4);
    expect(r?.segments.every((s) => s.generated_ids.length === 0)).toBe(true);
    expect(r?.segments[0]?.tool_call_id).toBeNull();
    expect(r?.steps?.map((s) => s.tool_call_id)).toEqual(['call_1_1', 'call_2_task_complete', 'call_3_task_complete']);
    const transcript = recordTranscript(r as NonNullable<typeof r>);
    expect(transcript?.[1]?.reasoning).toContain('straightforward');
    expect(transcript?.[2]?.content).toContain('Previous response had parsing errors');
  });

  it('openhands agent: a result names its call by source_call_id; the finish call has no observation', () => {
    const { rollouts, errors } = readReal('harbor-golden/openhands__hello-world.trajectory.json');
    expect(errors).toEqual([]);
    const r = rollouts[0]?.record;
    expect(r?.segments.map((s) => s.tool_call_id)).toEqual(['call_fake_1', 'call_fake_2']);
    expect(r?.steps).toEqual([
      {
        tool_call_id: 'call_fake_1',
        tool: 'str_replace_editor',
        args: { command: 'create', path: '/app/hello.txt', file_text: 'Hello, world!', security_risk: 'LOW' },
        observation: { text: 'File created successfully at: /app/hello.txt' },
      },
    ]);
  });
});
