import { describe, expect, it } from 'vitest';
import { buildChain, buildRollout, buildSegment, buildStep, lintCodes as find } from '../testing/builders';

describe('step checks (§7): duplicate executions, orphan calls, actions after finish', () => {
  it('E_DUPLICATE_EXECUTION: two steps with one call id', () => {
    const r = buildRollout({ segments: [buildSegment({ tool_call_id: 'c-1' })], steps: [buildStep(), buildStep()] });
    expect(find(r)).toEqual([{ code: 'E_DUPLICATE_EXECUTION', segment: null, step: 2, severity: 'error' }]);
  });

  it('E_DUPLICATE_EXECUTION: executions > 1; a retried transport (attempts 2, executions 1) is fine', () => {
    expect(find(buildRollout({ steps: [buildStep({ executions: 2 })] }))).toEqual([
      { code: 'E_DUPLICATE_EXECUTION', segment: null, step: 1, severity: 'error' },
    ]);
    expect(find(buildRollout({ steps: [buildStep({ attempts: 2, executions: 1 })] }))).toEqual([]);
  });

  it('W_ORPHAN_CALL: a segment without a step, and a step without a segment (only when steps exist)', () => {
    const r = buildRollout({ segments: [buildSegment({ tool_call_id: 'c-1' })], steps: [buildStep({ tool_call_id: 'c-2' })] });
    expect(find(r)).toEqual([
      { code: 'W_ORPHAN_CALL', segment: 0, step: null, severity: 'warning' },
      { code: 'W_ORPHAN_CALL', segment: null, step: 1, severity: 'warning' },
    ]);
    expect(find(buildRollout({ segments: [buildSegment({ tool_call_id: 'c-1' })] }))).toEqual([]);
  });

  it('W_ORPHAN_CALL: a step another actor took (actor "user") needs no segment; the policy\'s steps still do', () => {
    const segments = [buildSegment({ tool_call_id: 'c-1' })];
    const agent = buildStep({ tool_call_id: 'c-1' });
    const user = buildStep({ tool_call_id: 'u-1', tool: 'toggle_airplane_mode', actor: 'user' });
    expect(find(buildRollout({ segments, steps: [agent, user] }))).toEqual([]);
    // "agent" is the policy, as absent is: its step without a generation is still an orphan.
    const named = buildStep({ tool_call_id: 'c-2', actor: 'agent' });
    expect(find(buildRollout({ segments, steps: [agent, user, named] }))).toEqual([
      { code: 'W_ORPHAN_CALL', segment: null, step: 3, severity: 'warning' },
    ]);
    // A user step is still an execution: run twice, it is E_DUPLICATE_EXECUTION.
    expect(find(buildRollout({ segments, steps: [agent, user, user] }))).toEqual([
      { code: 'E_DUPLICATE_EXECUTION', segment: null, step: 3, severity: 'error' },
    ]);
  });

  it('parallel calls listed in tool_call_ids each join their step', () => {
    const r = buildRollout({
      segments: [buildSegment({ tool_call_id: 'c-1', tool_call_ids: ['c-1', 'c-2'] })],
      steps: [buildStep({ tool_call_id: 'c-1' }), buildStep({ tool_call_id: 'c-2' })],
    });
    expect(find(r)).toEqual([]);
    const missing = buildRollout({
      segments: [buildSegment({ tool_call_id: 'c-1', tool_call_ids: ['c-1', 'c-3'] })],
      steps: [buildStep({ tool_call_id: 'c-1' })],
    });
    expect(find(missing)).toEqual([{ code: 'W_ORPHAN_CALL', segment: 0, step: null, severity: 'warning' }]);
  });

  it('a final text answer (tool_call_id null) is not an orphan', () => {
    const chain = buildChain([{ tool: 'finish' }]);
    const last = chain.segments[0];
    if (!last) throw new Error();
    const answer = buildSegment({ input_ids: [...last.input_ids, ...last.generated_ids, 500], tool_call_id: null });
    expect(find(buildRollout({ ...chain, segments: [...chain.segments, answer] }))).toEqual([]);
  });

  it('W_ACTION_AFTER_FINISH: one finding per step after the first finish', () => {
    const r = buildRollout(buildChain([{ tool: 'finish' }, { tool: 'read_file' }, { tool: 'finish' }]));
    expect(find(r)).toEqual([
      { code: 'W_ACTION_AFTER_FINISH', segment: null, step: 2, severity: 'warning' },
      { code: 'W_ACTION_AFTER_FINISH', segment: null, step: 3, severity: 'warning' },
    ]);
  });

  it("W_ORPHAN_CALL reads tool_call_ids only as the adapters write them (listing the segment's own call first)", () => {
    const chain = buildChain([{ tool: 'read_file' }, { tool: 'finish' }]);
    const seg0 = chain.segments[0];
    if (!seg0?.tool_call_id) throw new Error('chain');
    // An empty or unrelated list in a v1 file is an unknown field: the segment's own call still counts.
    for (const tool_call_ids of [[], ['zz'], 'c-001']) {
      const segments = chain.segments.map((s, i) => (i === 0 ? { ...s, tool_call_ids } : s));
      expect(find(buildRollout({ ...chain, segments }))).toEqual([]);
    }
    // Two calls of one generation, both executed: no orphan either way.
    const other = buildStep({ tool_call_id: 'c-extra', tool: 'read_file' });
    const segments = chain.segments.map((s, i) => (i === 0 ? { ...s, tool_call_ids: [seg0.tool_call_id, 'c-extra'] } : s));
    expect(find(buildRollout({ ...chain, segments, steps: [...(chain.steps ?? []), other] }))).toEqual([
      { code: 'W_ACTION_AFTER_FINISH', segment: null, step: 3, severity: 'warning' },
    ]);
  });
});
