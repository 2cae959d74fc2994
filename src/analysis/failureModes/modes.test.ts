import { readdirSync, readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { parseLine, type Rollout } from '../../format';
import { buildRollout, buildStep, buildSummary } from '../../testing/builders';
import { summarizeRollout } from '../lint';
import { matchRow } from '../search/match';
import { parseQuery } from '../search/query';
import type { RolloutSummary } from '../types';
import { EXEMPLARS, type FailureMode, FailureModes } from './modes';
import { failureSignature, splitSignature } from './signature';
import { maskLine } from './template';

const DIR = new URL('../../../public/demo/run/', import.meta.url);
const names = readdirSync(DIR)
  .filter((n) => !n.startsWith('.'))
  .sort();
const loaded = names.flatMap((name) =>
  gunzipSync(readFileSync(new URL(name, DIR)))
    .toString('utf8')
    .trimEnd()
    .split('\n')
    .map((text, i) => {
      const r = parseLine(text, i + 1, name);
      if (r?.kind !== 'rollout') throw new Error(`${name}:${i + 1} does not parse`);
      return r.value;
    }),
);
const read = loaded.map((l) => ({ record: l.record, summary: summarizeRollout(l) }));
const demo = (() => {
  const modes = new FailureModes();
  for (const { record, summary } of read) modes.add(record, summary);
  return modes.result();
})();

const failed = (s: Rollout['steps'] extends (infer T)[] | undefined ? T : never) =>
  (s.observation?.status ?? 'ok') !== 'ok' || (s.observation?.exit_code ?? 0) !== 0;
const records = read.map((r) => r.record);
const withTermination = (t: string) => records.filter((r) => r.termination === t);
const sum = (modes: readonly FailureMode[], f: (m: FailureMode) => number) => modes.reduce((n, m) => n + f(m), 0);
const byTermination = (t: string) => demo.modes.filter((m) => m.termination === t);

describe('failure modes of the committed demo run', () => {
  it('counts every rollout that is excluded or not fully rewarded once', () => {
    const byHand = read.filter(({ summary: s }) => !s.in_signal || s.reward === null || s.reward < 1).length;
    expect(demo.rollouts).toBe(records.length);
    expect(demo.failures).toBe(byHand);
    expect(sum(demo.modes, (m) => m.count)).toBe(byHand);
  });

  it('names the stalled loop: budget exhausted, by the tool it last called', () => {
    const budget = withTermination('budget_exhausted');
    expect(budget.length).toBeGreaterThan(0);
    expect(sum(byTermination('budget_exhausted'), (m) => m.count)).toBe(budget.length);
    for (const tool of ['run_tests', 'edit', 'read_file']) {
      const byHand = budget.filter((r) => r.steps?.at(-1)?.tool === tool).length;
      expect(sum(byTermination('budget_exhausted'), (m) => m.last_tools[tool] ?? 0)).toBe(byHand);
    }
    expect(
      demo.modes.some((m) =>
        m.name.startsWith('budget_exhausted · run_tests: find <n>: over budget (exceeded its budget of <n> line events)'),
      ),
    ).toBe(true);
  });

  it('names the wrong edit: finished, every tool last succeeded, and the grader failed it', () => {
    const byHand = records.filter((r) => {
      if (r.termination !== 'finished' || r.grading?.verdict !== 'fail') return false;
      const last = new Map((r.steps ?? []).map((s) => [s.tool, s]));
      return [...last.values()].every((s) => !failed(s) && (s.tests?.failed?.length ?? 0) + (s.tests?.over_budget?.length ?? 0) === 0);
    }).length;
    const mode = demo.modes.find((m) => m.name === 'finished (fail) · grader: <n> of <n> private tests failed');
    expect(mode?.count).toBe(byHand);
    expect(mode).toBe(demo.modes[0]);
    expect(mode?.exemplars).toHaveLength(EXEMPLARS);
    expect(mode?.tasks.map((t) => t.task_id).sort()).toEqual([...new Set(records.map((r) => r.task_id))].sort());
    // Every finished rollout the grader failed is in some finished (fail) mode.
    expect(
      sum(
        demo.modes.filter((m) => m.termination === 'finished' && m.verdict === 'fail'),
        (m) => m.count,
      ),
    ).toBe(records.filter((r) => r.termination === 'finished' && r.grading?.verdict === 'fail').length);
  });

  it('names the regressions, the invalid call and the infrastructure failure', () => {
    for (const kind of ['revert', 'test'] as const) {
      const byHand = read.filter(
        ({ summary: s }) => (!s.in_signal || s.reward === null || s.reward < 1) && s.regressions.some((g) => g.kind === kind),
      ).length;
      expect(byHand).toBeGreaterThan(0);
      expect(sum(demo.modes, (m) => m.regression_kinds[kind] ?? 0)).toBe(byHand);
    }
    expect(demo.modes.some((m) => m.name.includes('· regression revert/test'))).toBe(true);
    const invalid = demo.modes.find((m) => m.name === 'invalid_call · run_shell: error: unknown tool <str>; the harness rejected the call');
    expect(invalid?.count).toBe(withTermination('invalid_call').filter((r) => r.steps?.at(-1)?.tool === 'run_shell').length);
    const infra = demo.modes.find((m) => m.termination === 'infra_failure');
    expect(infra?.name).toBe(
      'infra_failure · run_tests: infrastructure failure: test process killed by SIGKILL (no observation reached the model)',
    );
    expect(infra?.count).toBe(withTermination('infra_failure').length);
  });

  it('fails less as the reward rises: the first third of steps against the last', () => {
    const steps = [...new Set(records.map((r) => r.training_step as number))].sort((a, b) => a - b);
    const third = Math.floor(steps.length / 3);
    const [early, late] = [new Set(steps.slice(0, third)), new Set(steps.slice(-third))];
    const failShare = (at: Set<number>) => {
      const rows = demo.modes.flatMap((m) => m.steps.filter((s) => at.has(s.step as number)));
      const rollouts = records.filter((r) => at.has(r.training_step as number)).length;
      return rows.reduce((n, s) => n + s.count, 0) / rollouts;
    };
    const meanReward = (at: Set<number>) => {
      const rewards = read
        .filter(({ record: r, summary: s }) => at.has(r.training_step as number) && s.in_signal)
        .map((r) => r.summary.reward ?? 0);
      return rewards.reduce((a, b) => a + b, 0) / rewards.length;
    };
    expect(meanReward(late)).toBeGreaterThan(meanReward(early));
    expect(failShare(late)).toBeLessThan(failShare(early));
    // The wrong edit, the most common mode, falls too.
    const top = demo.modes[0];
    const share = (at: Set<number>) => {
      const rows = top?.steps.filter((s) => at.has(s.step as number)) ?? [];
      return rows.reduce((n, s) => n + s.count, 0) / rows.reduce((n, s) => n + s.rollouts, 0);
    };
    expect(share(late)).toBeLessThan(share(early));
  });
});

describe('FailureModes', () => {
  const failing = (text: string, tool = 'run_tests'): Rollout =>
    buildRollout({ termination: 'finished', reward: 0, steps: [buildStep({ tool, observation: { status: 'error', text } })] });

  it('puts rollouts without a training step at step null, and passes no successful rollout into a mode', () => {
    const modes = new FailureModes();
    modes.add(buildRollout(), buildSummary());
    const record = failing('error: 3 tests failed');
    modes.add(record, summarizeRollout({ file: 'f.jsonl', line: 2, record }));
    const { modes: found, failures } = modes.result();
    expect(failures).toBe(1);
    expect(found).toHaveLength(1);
    expect(found[0]?.steps).toEqual([{ step: null, count: 1, rollouts: 2, share: 0.5 }]);
    expect(found[0]?.name).toBe('finished · run_tests: error: <n> tests failed');
  });

  it('keeps memory bounded by the modes: 100,000 failing rollouts from 5 templates', () => {
    const templates: ((i: number) => [string, string])[] = [
      (i) => ['run_tests', `find ${i % 97}: over budget (exceeded its budget of ${1000 + i} line events)`],
      (i) => ['edit', `error: old text not found in src/module_${i % 13}/file${i}.py`],
      (i) => ['run_tests', `Timeout after ${i % 60} s waiting for pid ${i}`],
      (i) => ['read_file', `error: checksum mismatch 0x${(i * 2654435761).toString(16)} at offset ${i * 7}`],
      (i) => ['run_shell', `error: unknown tool "tool_${i % 5}"; the harness rejected the call`],
    ];
    const modes = new FailureModes();
    const steps = [buildStep()];
    for (let i = 0; i < 100_000; i++) {
      const [tool, text] = (templates[i % templates.length] as (i: number) => [string, string])(i);
      const step = steps[0] as NonNullable<Rollout['steps']>[number];
      step.tool = tool;
      step.observation = { status: 'error', text };
      const record: Rollout = { ...failingBase, steps, training_step: i % 50 } as Rollout;
      const summary: RolloutSummary = { ...summaryBase, rollout_id: `r-${i}`, task_id: `task-${i % 7}` };
      const failure = failureSignature(record, summary);
      modes.add(record, failure ? { ...summary, failure } : summary);
    }
    const result = modes.result();
    expect(result.failures).toBe(100_000);
    expect(result.templates).toBe(5);
    expect(result.modes).toHaveLength(5);
    expect(result.modes.map((m) => m.count)).toEqual([20_000, 20_000, 20_000, 20_000, 20_000]);
    expect(sum(result.modes, (m) => m.exemplars.length)).toBeLessThanOrEqual(5 * EXEMPLARS);
    for (const m of result.modes) {
      expect(m.steps).toHaveLength(50);
      expect(m.tasks.length).toBeLessThanOrEqual(7);
    }
  });
});

describe("a mode's query", () => {
  it('finds exactly the rollouts of the modes whose signature it globs, in the committed demo run', () => {
    for (const mode of demo.modes) {
      const clauses = parseQuery(mode.query).clauses;
      const hits = read.filter(({ summary }) => summary.failure && matchRow(clauses, summary));
      const sameText = demo.modes.filter((m) => m.query === mode.query);
      expect(hits.length).toBe(sum(sameText, (m) => m.count));
    }
  });
});

describe('failure signatures', () => {
  it("are one rollout's own: the head and the masked line, split back exactly", () => {
    const record = buildRollout({
      termination: 'finished',
      reward: 0,
      grading: { verdict: 'fail', private_tests: { passed: 1, failed: 2 } },
      steps: [buildStep({ tool: 'edit' })],
    });
    const failure = summarizeRollout({ file: 'f.jsonl', line: 1, record }).failure;
    expect(failure).toEqual({ name: 'finished (fail) · grader: <n> of <n> private tests failed', features: ['last:edit'] });
    expect(splitSignature(failure?.name ?? '')).toEqual({ head: 'finished (fail) · grader', line: '<n> of <n> private tests failed' });
    expect(
      summarizeRollout({ file: 'f.jsonl', line: 1, record: buildRollout({ termination: 'finished', reward: 1 }) }).failure,
    ).toBeUndefined();
  });

  it('a masked line masked again is the same line (the index keeps it masked; the miner masks what it reads)', () => {
    for (const { summary } of read) {
      if (summary.failure) expect(summarizeFailureLine(summary.failure.name)).toBe(splitSignature(summary.failure.name).line);
    }
  });
});

const summarizeFailureLine = (name: string) => maskLine(splitSignature(name).line);

const failingBase = buildRollout({ termination: 'finished', reward: 0 });
const summaryBase = buildSummary({ reward: 0 });
