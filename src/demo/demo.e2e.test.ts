import { beforeAll, describe, expect, it } from 'vitest';
import { LintSession } from '../analysis';
import { type Rollout, v1Schema } from '../format';
import { toolCallText } from './chat/chatml';
import { qwen3Tokenizer } from './chat/tokenizer';
import { generateDemo, toJsonl } from './generate';
import { parseToolCall } from './harness/parseCall';
import { observe } from './policy/observe';
import { movesFor, repertoireFor } from './policy/repertoire';
import { moveWeight, WEIGHTS_V1, WEIGHTS_V2 } from './policy/weights';
import { ARTICLE_STEPS } from './scenarios';
import { taskById } from './tasks';

/*
 * End to end on a small set: every scripted scenario plus one GRPO group of three, with real python3
 * subprocesses and real temp directories, generated twice.
 */
const tok = qwen3Tokenizer();
const OPTIONS = { groups: 1, perGroup: 3, seed: 11 };
let rollouts: Rollout[] = [];
let jsonl = '';

// Generation runs the tests in Python subprocesses: on a loaded shared machine it has taken over a minute.
const GENERATE_MS = 180_000;

beforeAll(async () => {
  rollouts = await generateDemo(OPTIONS);
  jsonl = toJsonl(rollouts);
}, GENERATE_MS);

function byId(id: string, attempt = 'a-1'): Rollout {
  const r = rollouts.find((x) => x.rollout_id === id && x.attempt_id === attempt);
  if (!r) throw new Error(`no rollout ${id} ${attempt}`);
  return r;
}
const sum = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0);
const names = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);
const tools = (r: Rollout) => (r.steps ?? []).map((s) => s.tool);

describe('demo harness, end to end', () => {
  it(
    'gives the same bytes for the same seed',
    async () => {
      expect(toJsonl(await generateDemo(OPTIONS))).toBe(jsonl);
    },
    GENERATE_MS,
  );

  it('writes records that pass the format schema, with no temp path anywhere', () => {
    expect(rollouts).toHaveLength(15);
    for (const r of rollouts) expect(v1Schema().rollout.safeParse(r).success).toBe(true);
    expect(jsonl).not.toMatch(/trajscope-(sandbox|grader)-|\/tmp\//);
  });

  it("records token log-probs that sum to the call's log-probability under the policy, computed from the weights", () => {
    for (const r of rollouts) {
      const weights = r.policy_version === 'v-2' ? WEIGHTS_V2 : WEIGHTS_V1;
      for (const seg of r.segments) {
        const context = tok.decode(seg.input_ids);
        const rep = repertoireFor(context);
        if (!rep) throw new Error('the context names no known file');
        const seen = observe(context, rep);
        const moves = movesFor(rep);
        const total = sum(moves.map((m) => moveWeight(m, seen, weights)));
        const move = moves.find((m) => toolCallText(m.tool, m.args) === tok.decode(seg.generated_ids));
        if (!move) throw new Error('the generation is no candidate call');
        // The bfloat16 sampler holds the weights in 8 significant bits: its sum is close, not exact.
        const digits = r.rollout_id === 'r-bf16-sampler' ? 2 : 9;
        expect(sum(seg.old_logprobs)).toBeCloseTo(Math.log(moveWeight(move, seen, weights) / total), digits);
      }
    }
  });

  it('decodes generated_ids with the Qwen3 tokenizer back to the tool call that was executed', () => {
    for (const r of rollouts) {
      for (const seg of r.segments) {
        const text = tok.decode(seg.generated_ids);
        expect(seg.generated_tokens?.join('')).toBe(text);
        const call = parseToolCall(text);
        const step = r.steps?.find((s) => s.tool_call_id === seg.tool_call_id);
        if (!call.ok || !step) throw new Error(`segment without a parsed call and step in ${r.rollout_id}`);
        expect(text).toBe(toolCallText(step.tool, step.args ?? {}));
      }
    }
  });

  it('starts every rollout from a fresh repo: the first read of the file shows the original', () => {
    for (const r of rollouts) {
      const task = taskById(r.task_id);
      const first = r.steps?.find((s) => s.tool === 'read_file' && s.args?.path === task.mainFile);
      if (first) expect(first.observation?.text).toBe(task.files.get(task.mainFile));
    }
  });

  it('never shows the grader result to the model', () => {
    for (const r of rollouts) {
      if (!r.grading) continue;
      const secrets = [...names(r.grading.private_tests?.passed), ...names(r.grading.private_tests?.failed)];
      expect(secrets.length).toBeGreaterThan(0);
      secrets.push(r.grading.artifact_digest ?? '', 'verdict', 'private');
      for (const seg of r.segments) {
        const context = tok.decode(seg.input_ids);
        for (const s of secrets) expect(context).not.toContain(s);
      }
    }
  });

  it('executes a retried call once', () => {
    const retried = (byId('r-retry').steps ?? []).filter((s) => (s.attempts ?? 1) > 1);
    expect(retried).toHaveLength(1);
    expect(retried[0]).toMatchObject({ tool: 'edit', attempts: 2, executions: 1 });
    for (const r of rollouts) for (const s of r.steps ?? []) expect(s.executions ?? 1).toBeLessThanOrEqual(1);
  });

  it('plays each scenario to the ending it was made for', () => {
    const article = byId('r-article');
    expect(tools(article)).toEqual(['read_file', 'edit', 'run_tests', 'edit', 'run_tests', 'finish']);
    expect(article.steps?.[2]?.tests).toEqual({ passed: ['find 3', 'find 6'], failed: [], over_budget: ['find 0'] });
    expect(article.steps?.[4]?.tests?.passed).toHaveLength(3);
    expect([article.termination, article.reward, article.grading?.verdict]).toEqual(['finished', 1, 'pass']);
    expect(byId('r-article').segments).toHaveLength(ARTICLE_STEPS.length);
    expect([byId('r-budget').termination, byId('r-budget').reward]).toEqual(['budget_exhausted', 0]);
    expect([byId('r-invalid').termination, byId('r-invalid').reward]).toEqual(['invalid_call', 0]);
    expect(byId('r-invalid').steps?.at(-1)).toMatchObject({ tool: 'run_shell', executions: 0 });
    for (const id of ['r-infra', 'r-sandbox-lost']) expect([byId(id).termination, byId(id).reward]).toEqual(['infra_failure', null]);
    expect([byId('r-cancelled').termination, byId('r-cancelled').reward]).toEqual(['cancelled', null]);
    expect(byId('r-infra', 'a-2').termination).not.toBe('infra_failure');
  });

  it('packs training records that line up with the segments, except where the context was compacted or the trainer re-tokenized', () => {
    for (const r of rollouts) {
      const t = r.training;
      if (r.reward === null) {
        expect(t).toBeUndefined();
        continue;
      }
      if (!t) throw new Error(`${r.rollout_id} has no training record`);
      const last = r.segments.at(-1);
      const packed = last ? [...last.input_ids, ...last.generated_ids] : [];
      if (r.rollout_id === 'r-compacted') {
        expect(t.sequence_ids.length).toBeGreaterThan(packed.length);
        continue;
      }
      if (r.rollout_id === 'r-retokenized') {
        // The same text in other ids: the grammar decoder's tokens were not the canonical encoding.
        expect(tok.decode(t.sequence_ids)).toBe(tok.decode(packed));
        expect(t.sequence_ids).not.toEqual(packed);
        expect(t.sequence_ids.length).toBeLessThan(packed.length);
        continue;
      }
      expect(t.sequence_ids).toEqual(packed);
      const mask = packed.map(() => 0);
      const lps: (number | null)[] = packed.map(() => null);
      for (const seg of r.segments) {
        seg.generated_ids.forEach((_, j) => {
          mask[seg.input_ids.length + j] = 1;
          lps[seg.input_ids.length + j] = seg.old_logprobs[j] ?? null;
        });
      }
      expect(t.loss_mask).toEqual(mask);
      if (r.rollout_id === 'r-bf16-sampler') {
        // bfloat16 weights on the sampler, float64 in the trainer: equal where a token was forced, close elsewhere.
        const differ = lps.filter((lp, i) => lp !== null && lp !== t.logprobs?.[i]);
        expect(differ.length).toBeGreaterThan(0);
        lps.forEach((lp, i) => {
          if (lp === 0) expect(t.logprobs?.[i]).toBe(0);
          if (lp !== null) expect(Math.abs((t.logprobs?.[i] ?? 0) - lp)).toBeLessThan(1e-2);
        });
        continue;
      }
      expect(t.logprobs).toEqual(lps);
    }
  });

  it('lints to exactly the planted findings: compaction on r-compacted, re-tokenization on r-retokenized, nothing elsewhere', () => {
    const session = new LintSession();
    rollouts.forEach((record, i) => {
      session.addRollout({ file: 'demo.jsonl', line: i + 1, record });
    });
    const report = session.report();
    for (const r of report.rollouts) {
      const codes = r.findings.map((f) => f.code).sort();
      if (r.rollout_id === 'r-compacted') {
        expect(codes).toEqual(['E_TRAINING_CONTEXT', 'E_TRAINING_CONTEXT', 'E_TRAINING_CONTEXT', 'E_TRAINING_MASK', 'W_CONTEXT_REWRITTEN']);
      } else if (r.rollout_id === 'r-retokenized') {
        expect(codes).toEqual([...Array(6).fill('E_TRAINING_CONTEXT'), 'E_TRAINING_MASK']);
      } else {
        expect(codes, r.rollout_id).toEqual([]);
      }
    }
    const groupCodes = new Set(report.groups.flatMap((g) => g.findings.map((f) => f.code)));
    groupCodes.delete('W_ZERO_VARIANCE_GROUP');
    expect([...groupCodes]).toEqual([]);
    expect(report.parse_errors).toEqual([]);
  });

  it('compacts once: one stale file view replaced, in one segment only', () => {
    const r = byId('r-compacted');
    const omitted = r.segments.map((s) => tok.decode(s.input_ids).includes('[output omitted]'));
    expect(omitted).toEqual([false, false, false, true, true, true]);
  });
});
