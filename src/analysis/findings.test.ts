import { describe, expect, it } from 'vitest';
import type { Rollout } from '../format';
import { buildChain, buildRollout, buildSegment, buildStep, FULL_METADATA } from '../testing/builders';
import { rolloutFindings } from './rolloutChecks';

const find = (r: Rollout, threshold?: number) =>
  rolloutFindings(r, threshold === undefined ? {} : { driftThreshold: threshold }).map(({ code, segment, step, severity }) => ({
    code,
    segment,
    step,
    severity,
  }));

/** Two appending segments with a correct training record: seq = seg1.input + seg1.generated. */
function withTraining(overrides: Partial<NonNullable<Rollout['training']>> = {}, tools = ['read_file', 'finish']): Rollout {
  const chain = buildChain(tools.map((tool) => ({ tool })));
  const last = chain.segments[chain.segments.length - 1];
  if (!last) throw new Error('chain');
  const seq = [...last.input_ids, ...last.generated_ids];
  const mask = seq.map((_, i) =>
    chain.segments.some((s) => i >= s.input_ids.length && i < s.input_ids.length + s.generated_ids.length) ? 1 : 0,
  );
  const logprobs = seq.map((_, i) => (mask[i] ? -0.5 : null));
  return buildRollout({ ...chain, training: { sequence_ids: seq, loss_mask: mask, logprobs, ...overrides } });
}

describe('findings (§7), each on its own', () => {
  it('a builder rollout, a chain and a correct training record are clean', () => {
    expect(find(buildRollout())).toEqual([]);
    expect(find(buildRollout(buildChain([{ tool: 'read_file' }, { tool: 'edit' }, { tool: 'finish' }])))).toEqual([]);
    expect(find(withTraining())).toEqual([]);
  });

  it('E_LOGPROB_LENGTH', () => {
    expect(find(buildRollout({ segments: [buildSegment({ old_logprobs: [-1] })] }))).toEqual([
      { code: 'E_LOGPROB_LENGTH', segment: 0, step: null, severity: 'error' },
    ]);
  });

  it('E_LOGPROB_RANGE: above 0 only; 0 itself is a certain token', () => {
    expect(find(buildRollout({ segments: [buildSegment({ old_logprobs: [0, 0.1] })] }))).toEqual([
      { code: 'E_LOGPROB_RANGE', segment: 0, step: null, severity: 'error' },
    ]);
    expect(find(buildRollout({ segments: [buildSegment({ old_logprobs: [0, -0] })] }))).toEqual([]);
  });

  it('E_MASK_LENGTH', () => {
    expect(find(buildRollout({ segments: [buildSegment({ loss_mask: [1] })] }))).toEqual([
      { code: 'E_MASK_LENGTH', segment: 0, step: null, severity: 'error' },
    ]);
  });

  it('E_TOKEN_TEXT_LENGTH for input_tokens and for generated_tokens', () => {
    expect(find(buildRollout({ segments: [buildSegment({ input_tokens: ['a'] })] })).map((f) => f.code)).toEqual(['E_TOKEN_TEXT_LENGTH']);
    expect(find(buildRollout({ segments: [buildSegment({ generated_tokens: ['a', 'b', 'c'] })] })).map((f) => f.code)).toEqual([
      'E_TOKEN_TEXT_LENGTH',
    ]);
    expect(find(buildRollout({ segments: [buildSegment({ input_tokens: ['a', 'b', 'c'], generated_tokens: ['x', 'y'] })] }))).toEqual([]);
  });

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

  it('E_TRAINING_CONTEXT: the trainer packed the full history but sampling had compacted it', () => {
    const r = withTraining({}, ['read_file', 'run_tests', 'finish']);
    const [s0, s1, s2] = r.segments;
    if (!s0 || !s1 || !s2) throw new Error();
    // Sampling dropped step 1's observation token (position 5) from the last context; the trainer
    // still packs the full history, so positions after it no longer line up either.
    const compacted = { ...s2, input_ids: s2.input_ids.filter((_, i) => i !== 5) };
    const findings = find({ ...r, segments: [s0, s1, compacted] });
    expect(findings.map((f) => [f.code, f.segment])).toEqual([
      ['W_CONTEXT_REWRITTEN', 2],
      ['E_TRAINING_CONTEXT', 2],
      ['E_TRAINING_MASK', null],
    ]);
  });

  it('E_TRAINING_CONTEXT when the generated tokens differ in the packed sequence', () => {
    const r = withTraining();
    const seq = [...(r.training?.sequence_ids ?? [])];
    seq[seq.length - 1] = 9999;
    expect(
      find({ ...r, training: { ...r.training, sequence_ids: seq, loss_mask: r.training?.loss_mask ?? [] } }).map((f) => [
        f.code,
        f.segment,
      ]),
    ).toEqual([['E_TRAINING_CONTEXT', 1]]);
  });

  it('E_TRAINING_MASK: a prompt or observation token under loss', () => {
    const r = withTraining();
    const mask = [...(r.training?.loss_mask ?? [])];
    mask[0] = 1;
    expect(find({ ...r, training: { ...r.training, sequence_ids: r.training?.sequence_ids ?? [], loss_mask: mask } })).toEqual([
      { code: 'E_TRAINING_MASK', segment: null, step: null, severity: 'error' },
    ]);
  });

  it('E_TRAINING_MASK: a generated token whose own loss_mask is 0', () => {
    const r = withTraining();
    const segments = r.segments.map((s, i) => (i === 0 ? { ...s, loss_mask: [1, 0] as (0 | 1)[] } : s));
    expect(find({ ...r, segments }).map((f) => f.code)).toEqual(['E_TRAINING_MASK']);
  });

  it('E_TRAINING_MASK: padding after the last generation, and a mask of the wrong length', () => {
    const r = withTraining();
    const t = r.training;
    if (!t) throw new Error();
    expect(
      find({ ...r, training: { ...t, sequence_ids: [...t.sequence_ids, 0], loss_mask: [...t.loss_mask, 1], logprobs: undefined } }).map(
        (f) => f.code,
      ),
    ).toEqual(['E_TRAINING_MASK']);
    expect(find({ ...r, training: { ...t, loss_mask: t.loss_mask.slice(1), logprobs: undefined } }).map((f) => f.code)).toContain(
      'E_TRAINING_MASK',
    );
  });

  it('a masked-out position with mask 0 everywhere is fine (training nothing is not an error)', () => {
    const r = withTraining();
    const t = r.training;
    if (!t) throw new Error();
    expect(find({ ...r, training: { ...t, loss_mask: t.loss_mask.map(() => 0) } })).toEqual([]);
  });

  it('W_UNKNOWN_TERMINATION', () => {
    expect(find(buildRollout({ termination: 'exploded' })).map((f) => f.code)).toEqual(['W_UNKNOWN_TERMINATION']);
  });

  it('W_CONTEXT_REWRITTEN: context that does not extend the previous input + generation', () => {
    const r = buildRollout({
      segments: [
        buildSegment({ input_ids: [1, 2], generated_ids: [3], old_logprobs: [-1] }),
        buildSegment({ input_ids: [1, 3, 4], tool_call_id: null }),
      ],
    });
    expect(find(r)).toEqual([{ code: 'W_CONTEXT_REWRITTEN', segment: 1, step: null, severity: 'warning' }]);
  });

  it('W_ORPHAN_CALL: a segment without a step, and a step without a segment (only when steps exist)', () => {
    const r = buildRollout({ segments: [buildSegment({ tool_call_id: 'c-1' })], steps: [buildStep({ tool_call_id: 'c-2' })] });
    expect(find(r)).toEqual([
      { code: 'W_ORPHAN_CALL', segment: 0, step: null, severity: 'warning' },
      { code: 'W_ORPHAN_CALL', segment: null, step: 1, severity: 'warning' },
    ]);
    expect(find(buildRollout({ segments: [buildSegment({ tool_call_id: 'c-1' })] }))).toEqual([]);
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

  it('W_MISSING_METADATA: one finding naming what is missing', () => {
    const r = buildRollout({ tokenizer: { name: 'qwen' }, sampling: undefined });
    const f = rolloutFindings(r);
    expect(f.map((x) => x.code)).toEqual(['W_MISSING_METADATA']);
    expect(f[0]?.message).toBe('missing tokenizer.version, sampling');
  });

  it('W_MISSING_METADATA accepts the grader version from grading.grader', () => {
    const r = buildRollout({ grader: undefined, grading: { verdict: 'pass', grader: { name: 'g', version: '2' } } });
    expect(find(r)).toEqual([]);
    expect(find(buildRollout({ grader: undefined })).map((f) => f.code)).toEqual(['W_MISSING_METADATA']);
  });

  it('W_HIT_MAX_TOKENS: generated exactly max_new_tokens', () => {
    const r = buildRollout({ sampling: { ...FULL_METADATA.sampling, max_new_tokens: 2 } });
    expect(find(r)).toEqual([{ code: 'W_HIT_MAX_TOKENS', segment: 0, step: null, severity: 'warning' }]);
  });

  it('W_LOGPROB_DRIFT: beyond the threshold only, per segment, compared at the same token', () => {
    const r = withTraining();
    const t = r.training;
    const s1 = r.segments[1];
    if (!t?.logprobs || !s1) throw new Error();
    const lps = [...t.logprobs];
    lps[s1.input_ids.length] = -1.6; // sampled -0.5: differs by 1.1 nat
    const drifted = { ...r, training: { ...t, logprobs: lps } };
    expect(find(drifted)).toEqual([{ code: 'W_LOGPROB_DRIFT', segment: 1, step: null, severity: 'warning' }]);
    expect(find(drifted, 1.2)).toEqual([]);
    lps[s1.input_ids.length] = -1.4; // 0.9 nat: under the default threshold
    expect(find({ ...r, training: { ...t, logprobs: lps } })).toEqual([]);
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

  it('W_LOGPROB_DRIFT compares generated tokens only: surplus old_logprobs are E_LOGPROB_LENGTH, not drift', () => {
    const r = buildRollout({
      segments: [buildSegment({ input_ids: [1, 2], generated_ids: [3], old_logprobs: [-0.1, -0.2] })],
      training: { sequence_ids: [1, 2, 3, 4], loss_mask: [0, 0, 1, 0], logprobs: [null, null, -0.1, -5] },
    });
    expect(find(r).map((f) => f.code)).toEqual(['E_LOGPROB_LENGTH']);
  });

  it('E_TRAINING_MASK allows a 1 where some segment generated the token with mask 1, even if a later one overlaps it with 0', () => {
    // A rewritten (shorter) context puts segment 1's generation over segment 0's.
    const segments = [
      buildSegment({ input_ids: [1, 2], generated_ids: [3, 4], old_logprobs: [-0.1, -0.1], tool_call_id: null }),
      buildSegment({ input_ids: [1, 2], generated_ids: [3], old_logprobs: [-0.1], loss_mask: [0], tool_call_id: null }),
    ];
    const training = { sequence_ids: [1, 2, 3, 4], loss_mask: [0, 0, 1, 1] as (0 | 1)[] };
    const codes = find(buildRollout({ segments, training })).map((f) => f.code);
    expect(codes).not.toContain('E_TRAINING_MASK');
    // With the earlier segment's mask 0 as well, no segment trains position 2.
    const untrained = segments.map((s) => ({ ...s, loss_mask: s.generated_ids.map(() => 0 as const) }));
    expect(find(buildRollout({ segments: untrained, training })).map((f) => f.code)).toContain('E_TRAINING_MASK');
  });

  it('the minimal record lints clean apart from metadata warnings', () => {
    const minimal: Rollout = {
      task_id: 'binary-search-001',
      rollout_id: 'r-003',
      attempt_id: 'a-001',
      policy_version: 'v-012',
      environment_version: 'image-and-repo-digest',
      segments: [{ input_ids: [101, 202], generated_ids: [303, 404], old_logprobs: [-0.7, -0.4], tool_call_id: 'c-001' }],
      termination: 'finished',
      reward: 1.0,
    };
    expect(find(minimal).map((f) => f.code)).toEqual(['W_MISSING_METADATA']);
  });
});
