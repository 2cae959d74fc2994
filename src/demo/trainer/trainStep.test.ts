import { describe, expect, it } from 'vitest';
import { LintSession } from '../../analysis';
import type { Rollout } from '../../format';
import { qwen3Tokenizer } from '../chat/tokenizer';
import { PARAM_COUNT, type PolicyParams, paramsFromTable } from '../policy/params';
import { DEMO_SAMPLING, Policy } from '../policy/policy';
import { mulberry32 } from '../policy/rng';
import { HEAD } from '../policy/testContexts';
import { WEIGHTS_V1 } from '../policy/weights';
import { Adam } from './adam';
import { batchAdvantages, surrogate, trainStep } from './trainStep';

const tok = qwen3Tokenizer();
const context = tok.encode(HEAD);
const table = paramsFromTable(WEIGHTS_V1);
// A uniform behaviour policy, so the batch holds different moves and the trainer's ratios spread out.
const behaviour = new Policy({ version: 'v-0000', theta: table.theta.map(() => 0) }, DEMO_SAMPLING, tok);

function moved(p: PolicyParams, seed: number, scale: number): PolicyParams {
  const rng = mulberry32(seed);
  return { version: 'v-0001', theta: p.theta.map((t) => t + scale * (rng() - 0.5)) };
}

/** A one-generation rollout sampled by `behaviour`, packed as the demo trainer packs it. */
function sampled(id: string, group: string, seed: number, termination: string, reward: number | null): Rollout {
  const a = behaviour.act(context, mulberry32(seed));
  const seq = [...context, ...a.ids];
  return {
    task_id: 'binary-search-001',
    rollout_id: id,
    group_id: group,
    policy_version: behaviour.version,
    segments: [{ input_ids: context, generated_ids: a.ids, old_logprobs: a.logprobs, tool_call_id: 'c-001' }],
    termination,
    reward,
    training: { sequence_ids: seq, loss_mask: seq.map((_, i) => (i >= context.length ? 1 : 0)), logprobs: seq.map(() => null) },
  };
}

const batch: Rollout[] = [
  sampled('a1', 'A', 1, 'finished', 1),
  sampled('a2', 'A', 2, 'finished', 0),
  sampled('a3', 'A', 3, 'budget_exhausted', 0),
  sampled('a4', 'A', 4, 'finished', 1),
  // Excluded: even with a training record it must never be used.
  sampled('a5', 'A', 5, 'infra_failure', null),
  sampled('b1', 'B', 6, 'finished', 1),
  sampled('b2', 'B', 7, 'finished', 0),
  sampled('c1', 'C', 8, 'finished', 1),
  sampled('c2', 'C', 9, 'finished', 1),
];

describe('the GRPO trainer step', () => {
  for (const drGrpo of [false, true]) {
    it(`gives each rollout the advantage lint reports (${drGrpo ? 'Dr. GRPO' : 'GRPO'})`, () => {
      const session = new LintSession();
      batch.forEach((record, i) => {
        session.addRollout({ file: 'step.jsonl', line: i + 1, record });
      });
      expect(batchAdvantages(batch, drGrpo)).toEqual(session.advantages(!drGrpo));
      expect(batchAdvantages(batch, drGrpo)[4]).toBeNull();
    });
  }

  it('never touches an excluded rollout, and records its own log-probs on the masked positions only', () => {
    const trainer = behaviour.withParams(moved(table, 3, 0.8));
    const s = surrogate(batch, trainer, { step: 1, drGrpo: false });
    expect(s.records[4]).toBe(batch[4]);
    expect(s.trainedRollouts).toBe(8);
    s.records.forEach((r, i) => {
      if (i === 4) return;
      const t = r.training;
      const seg = r.segments[0];
      if (!t?.logprobs || !seg) throw new Error('no training record');
      const want = trainer.score(context, seg.generated_ids);
      expect(t.logprobs.slice(0, context.length).every((x) => x === null)).toBe(true);
      expect(t.logprobs.slice(context.length)).toEqual(want);
      expect(t.update).toMatchObject({ step: 1, policy_version: 'v-0001', tokens: seg.generated_ids.length });
    });
    // Group C's rewards are equal: advantage 0, trained on but pushing nothing.
    expect(s.records[7]?.training?.update?.advantage).toBe(0);
  });

  it('has the exact gradient of its clipped objective (central finite differences), with some tokens clipped', () => {
    for (const drGrpo of [false, true]) {
      const params = moved(table, 11, 1.2);
      const trainer = behaviour.withParams(params);
      const s = surrogate(batch, trainer, { step: 1, drGrpo });
      expect(s.clippedTokens).toBeGreaterThan(0);
      const h = 1e-6;
      for (let i = 0; i < PARAM_COUNT; i++) {
        const at = (d: number) =>
          surrogate(batch, trainer.withParams({ ...params, theta: params.theta.map((t, j) => (j === i ? t + d : t)) }), { step: 1, drGrpo })
            .objective;
        const fd = (at(h) - at(-h)) / (2 * h);
        expect(Math.abs((s.grad[i] ?? 0) - fd)).toBeLessThan(1e-6);
      }
    }
  }, 30_000);

  it('on-policy, the ratios are 1: the trainer’s log-probs equal old_logprobs and J is the mean advantage, 0', () => {
    const s = surrogate(batch, behaviour, { step: 0, drGrpo: false });
    expect(s.clippedTokens).toBe(0);
    for (const r of s.records) {
      if (!r.training?.update) continue;
      expect(r.training.logprobs?.slice(context.length)).toEqual(r.segments[0]?.old_logprobs);
    }
    expect(s.objective).toBeCloseTo(0, 12);
  });

  it('is deterministic, and a step up the gradient raises the objective', () => {
    const trainer = behaviour.withParams(moved(table, 4, 0.3));
    const a = trainStep(batch, trainer, new Adam({ lr: 0.01, beta1: 0.9, beta2: 0.999, eps: 1e-8 }), {
      step: 1,
      drGrpo: false,
      nextVersion: 'v-0002',
    });
    const b = trainStep(batch, trainer, new Adam({ lr: 0.01, beta1: 0.9, beta2: 0.999, eps: 1e-8 }), {
      step: 1,
      drGrpo: false,
      nextVersion: 'v-0002',
    });
    expect(a.params).toEqual(b.params);
    expect(a.params.version).toBe('v-0002');
    const after = surrogate(batch, trainer.withParams(a.params), { step: 1, drGrpo: false }).objective;
    expect(after).toBeGreaterThan(a.objective);
  });
});
