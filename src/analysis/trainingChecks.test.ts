import { describe, expect, it } from 'vitest';
import type { Segment } from '../format';
import { buildRollout, buildSegment, buildTrainedChain, lintCodes as find } from '../testing/builders';
import { rolloutMismatch } from './mismatch';

describe('training checks (§7): the trainer’s context, loss mask and log-probability drift', () => {
  it('E_TRAINING_CONTEXT: the trainer packed the full history but sampling had compacted it', () => {
    const r = buildTrainedChain({}, ['read_file', 'run_tests', 'finish']);
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
    const r = buildTrainedChain();
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
    const r = buildTrainedChain();
    const mask = [...(r.training?.loss_mask ?? [])];
    mask[0] = 1;
    expect(find({ ...r, training: { ...r.training, sequence_ids: r.training?.sequence_ids ?? [], loss_mask: mask } })).toEqual([
      { code: 'E_TRAINING_MASK', segment: null, step: null, severity: 'error' },
    ]);
  });

  it('E_TRAINING_MASK: a generated token whose own loss_mask is 0', () => {
    const r = buildTrainedChain();
    const segments = r.segments.map((s, i) => (i === 0 ? { ...s, loss_mask: [1, 0] as (0 | 1)[] } : s));
    expect(find({ ...r, segments }).map((f) => f.code)).toEqual(['E_TRAINING_MASK']);
  });

  it('E_TRAINING_MASK: padding after the last generation, and a mask of the wrong length', () => {
    const r = buildTrainedChain();
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
    const r = buildTrainedChain();
    const t = r.training;
    if (!t) throw new Error();
    expect(find({ ...r, training: { ...t, loss_mask: t.loss_mask.map(() => 0) } })).toEqual([]);
  });

  it('W_LOGPROB_DRIFT: beyond the threshold only, per segment, compared at the same token', () => {
    const r = buildTrainedChain();
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

  it('W_LOGPROB_DRIFT and §10 ignore trainer log-probabilities where training.loss_mask is 0 (recorded, never used)', () => {
    // Segment 0 generates [3, 4]; the trainer masks token 4 out and records a wild value there.
    const segments = [buildSegment({ input_ids: [1, 2], generated_ids: [3, 4], old_logprobs: [-0.5, -0.5], tool_call_id: null })];
    const training = { sequence_ids: [1, 2, 3, 4], loss_mask: [0, 0, 1, 0] as (0 | 1)[], logprobs: [-9, -9, -0.5, -9] };
    const r = buildRollout({ segments, training });
    expect(find(r)).toEqual([]);
    expect(rolloutMismatch(r)).toEqual({ n: 1, mean_abs: 0, max_abs: 0, ratio_mean: 1, ratio_clip_frac: 0, kl_k3: 0 });
    // Under the loss the same value is drift, and §10 counts it.
    const trained = buildRollout({ segments, training: { ...training, loss_mask: [0, 0, 1, 1] } });
    expect(find(trained).map((f) => f.code)).toEqual(['W_LOGPROB_DRIFT']);
    expect(rolloutMismatch(trained)?.max_abs).toBeCloseTo(8.5, 12);
  });

  it('a missing behaviour log-probability is never drift: neither W_LOGPROB_DRIFT nor §10 counts the position', () => {
    // old_logprobs has one value for two tokens (E_LOGPROB_LENGTH); the trainer differs by 5 nat at the second.
    const short = buildRollout({
      segments: [buildSegment({ input_ids: [1, 2], generated_ids: [3, 4], old_logprobs: [-0.5], tool_call_id: null })],
      training: { sequence_ids: [1, 2, 3, 4], loss_mask: [0, 0, 1, 1], logprobs: [null, null, -0.5, -5.5] },
    });
    expect(find(short).map((f) => f.code)).toEqual(['E_LOGPROB_LENGTH']);
    expect(rolloutMismatch(short)?.n).toBe(1);
    // A source that recorded no log-probabilities at all (an adapter marks it): nothing compared, no error.
    const unrecorded = buildRollout({
      segments: [
        {
          ...buildSegment({ input_ids: [1, 2], generated_ids: [3, 4], old_logprobs: [], tool_call_id: null }),
          old_logprobs_recorded: false,
        } as Segment,
      ],
      training: { sequence_ids: [1, 2, 3, 4], loss_mask: [0, 0, 1, 1], logprobs: [null, null, -7, -5.5] },
    });
    expect(find(unrecorded)).toEqual([]);
    expect(rolloutMismatch(unrecorded)).toMatchObject({ n: 0, max_abs: null });
  });
});
