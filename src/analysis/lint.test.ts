import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { JsonlParser } from '../format';
import { buildRollout, buildSummary, toJsonl } from '../testing/builders';
import { STD_EPSILON } from './groups';
import { LintSession } from './lint';

function session(records: unknown[]) {
  const parser = new JsonlParser('a.jsonl');
  const s = new LintSession();
  for (const r of [...parser.push(new TextEncoder().encode(toJsonl(records))), ...parser.end()]) s.add(r);
  s.addLineCount(parser.lines);
  return s;
}
const lint = (records: unknown[], normalizeStd = true) => session(records).report(normalizeStd);

describe('LintSession', () => {
  it('E_DUPLICATE_ROLLOUT on every line of the same (rollout_id, attempt_id)', () => {
    const a = buildRollout({ rollout_id: 'r-1', attempt_id: 'a-1' });
    const report = lint([a, buildRollout({ rollout_id: 'r-1', attempt_id: 'a-2' }), a, a]);
    const dup = report.rollouts.map((r) => r.findings.filter((f) => f.code === 'E_DUPLICATE_ROLLOUT').length);
    expect(dup).toEqual([1, 0, 1, 1]);
    expect(report.rollouts[0]?.findings[0]?.message).toContain('a.jsonl:3, a.jsonl:4');
  });

  it('a null attempt_id duplicates another null attempt_id', () => {
    const a = buildRollout({ attempt_id: undefined });
    expect(lint([a, a]).summary.errors).toBe(2);
  });

  it('group statistics count only rollouts in the signal with a numeric reward', () => {
    const report = lint([
      buildRollout({ rollout_id: 'r-1', reward: 1 }),
      buildRollout({ rollout_id: 'r-2', reward: 0 }),
      buildRollout({ rollout_id: 'r-3', reward: 0, termination: 'budget_exhausted' }),
      buildRollout({ rollout_id: 'r-4', reward: null, termination: 'infra_failure' }),
      buildRollout({ rollout_id: 'r-5', reward: null, termination: 'cancelled' }),
      buildRollout({ rollout_id: 'r-6', reward: null }),
    ]);
    const g = report.groups[0];
    expect(report.groups).toHaveLength(1);
    expect(g).toMatchObject({ group_id: 'task-1@v-1', rollouts: 6, in_signal: 4 });
    expect(g?.mean).toBeCloseTo(1 / 3, 12);
    const std = Math.sqrt(((2 / 3) ** 2 + 2 * (1 / 3) ** 2) / 2);
    expect(g?.std).toBeCloseTo(std, 12);
    expect(Object.keys(g?.advantages ?? {})).toEqual(['r-1', 'r-2', 'r-3']);
    expect(g?.advantages['r-1']).toBeCloseTo(2 / 3 / (std + STD_EPSILON), 9);
    expect(report.rollouts.map((r) => r.in_signal)).toEqual([true, true, true, false, false, true]);
  });

  it('Dr. GRPO advantages when std normalisation is off', () => {
    const recs = [buildRollout({ rollout_id: 'a', reward: 1 }), buildRollout({ rollout_id: 'b', reward: 0 })];
    expect(lint(recs, false).groups[0]?.advantages).toEqual({ a: 0.5, b: -0.5 });
  });

  it('W_ZERO_VARIANCE_GROUP for two or more equal rewards, not for a singleton', () => {
    const zero = lint([buildRollout({ rollout_id: 'a', reward: 1 }), buildRollout({ rollout_id: 'b', reward: 1 })]).groups[0];
    expect(zero?.findings.map((f) => f.code)).toEqual(['W_ZERO_VARIANCE_GROUP']);
    expect(zero?.advantages).toEqual({ a: 0, b: 0 });
    const single = lint([buildRollout({ rollout_id: 'a', reward: 1 })]).groups[0];
    expect(single).toMatchObject({ findings: [], std: null, advantages: { a: 0 }, mean: 1 });
  });

  it('W_GROUP_MIXED_POLICY / SAMPLING / ENV within one explicit group', () => {
    const g = { group_id: 'g' };
    const report = lint([
      buildRollout({
        ...g,
        rollout_id: 'a',
        reward: 1,
        policy_version: 'v1',
        environment_version: 'e1',
        sampling: { temperature: 1, seed: 1 },
      }),
      buildRollout({
        ...g,
        rollout_id: 'b',
        reward: 0,
        policy_version: 'v2',
        environment_version: 'e2',
        sampling: { temperature: 0.5, seed: 2 },
      }),
    ]);
    expect(report.groups[0]?.findings.map((f) => f.code)).toEqual(['W_GROUP_MIXED_POLICY', 'W_GROUP_MIXED_SAMPLING', 'W_GROUP_MIXED_ENV']);
    const sameButSeed = lint([
      buildRollout({ ...g, rollout_id: 'a', reward: 1, sampling: { temperature: 1, seed: 1 } }),
      buildRollout({ ...g, rollout_id: 'b', reward: 0, sampling: { temperature: 1, seed: 2 } }),
    ]);
    expect(sameButSeed.groups[0]?.findings).toEqual([]);
  });

  it('keys advantages by rollout_id#attempt_id when a group holds two attempts of one rollout', () => {
    const report = lint([
      buildRollout({ rollout_id: 'r-1', attempt_id: 'a-1', termination: 'infra_failure', reward: null }),
      buildRollout({ rollout_id: 'r-1', attempt_id: 'a-2', reward: 1 }),
      buildRollout({ rollout_id: 'r-2', attempt_id: 'a-1', reward: 0 }),
    ]);
    expect(Object.keys(report.groups[0]?.advantages ?? {})).toEqual(['r-1#a-2', 'r-2']);
  });

  it('summary counts lines (blank included), rollouts, errors (parse errors included) and warnings', () => {
    const report = lint([buildRollout({ rollout_id: 'a' }), '', '{oops', buildRollout({ rollout_id: 'b', termination: 'odd' })]);
    expect(report.summary).toEqual({ lines: 4, rollouts: 2, errors: 1, warnings: 1 });
    expect(report.parse_errors).toEqual([{ file: 'a.jsonl', line: 3, code: 'E_PARSE', message: expect.any(String) }]);
  });

  it('per-rollout advantages line up with the report, under GRPO and Dr. GRPO', () => {
    const s = session([
      buildRollout({ rollout_id: 'a', reward: 1 }),
      buildRollout({ rollout_id: 'x', task_id: 'other', reward: 0.5 }),
      buildRollout({ rollout_id: 'b', reward: 0 }),
      buildRollout({ rollout_id: 'c', reward: null, termination: 'cancelled' }),
    ]);
    const grpo = s.advantages(true);
    expect(grpo[0]).toBeCloseTo(s.report().groups[0]?.advantages.a ?? Number.NaN, 12);
    expect(grpo.slice(1)).toEqual([0, expect.closeTo(-0.5 / (Math.SQRT1_2 + 1e-6), 9), null]);
    expect(s.advantages(false)).toEqual([0.5, 0, -0.5, null]);
  });
});

describe('LintSession with unknownAsFinished', () => {
  const lintAll = (records: ReturnType<typeof buildRollout>[], unknownAsFinished: boolean) => {
    const session = new LintSession({ unknownAsFinished });
    for (const r of new JsonlParser('u.jsonl').push(new TextEncoder().encode(toJsonl(records)))) session.add(r);
    return session.report();
  };
  const records = [
    buildRollout({ rollout_id: 'a', task_id: 't', termination: 'unknown', reward: 1 }),
    buildRollout({ rollout_id: 'b', task_id: 't', termination: 'unknown', reward: 0 }),
    buildRollout({ rollout_id: 'c', task_id: 't', termination: 'exit_weird', reward: 1 }),
  ];

  it('off (the default): no status means out of the signal; the group says how many record none', () => {
    const report = lintAll(records, false);
    expect(report.groups[0]).toMatchObject({ rollouts: 3, in_signal: 0, unknown_termination: 2, mean: null });
    expect(report.rollouts.some((r) => r.counted_as_finished)).toBe(false);
  });

  it('on: only `unknown` counts as finished (a status written but not in the table does not), marked per rollout', () => {
    const report = lintAll(records, true);
    expect(report.groups[0]).toMatchObject({ rollouts: 3, in_signal: 2, unknown_termination: 2, mean: 0.5 });
    expect(report.rollouts.map((r) => [r.rollout_id, r.in_signal, r.counted_as_finished ?? false])).toEqual([
      ['a', true, true],
      ['b', true, true],
      ['c', false, false],
    ]);
    expect(report.rollouts[0]?.findings.map((f) => f.code)).toContain('W_UNKNOWN_TERMINATION');
  });
});

/** The heap in use after a full collection (V8's gc, exposed for the test). */
function heapAfterGc(): number {
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  gc();
  gc();
  return process.memoryUsage().heapUsed;
}

describe('LintSession with a sink (lint --json)', () => {
  it('hands every bad line on and keeps none of them: memory does not grow with bad lines', () => {
    let handed = 0;
    const session = new LintSession({}, { parseError: () => handed++, rollout: () => undefined });
    const n = 200_000;
    const before = heapAfterGc();
    for (let line = 1; line <= n; line++) {
      session.add({
        kind: 'error',
        value: { file: 'a.jsonl', line, code: 'E_PARSE', message: `line ${line} is not JSON: Unexpected end of JSON input` },
      });
    }
    const grown = heapAfterGc() - before;
    expect(handed).toBe(n);
    expect(session.totals().summary).toEqual({ lines: 0, rollouts: 0, errors: n, warnings: 0 });
    // Held, the lines take ~30 MB (about 150 bytes each); handed on, nothing per line.
    expect(grown).toBeLessThan(2_000_000);
    expect(() => session.report()).toThrow(/sink/);
  });

  it('keeps about 300 bytes per rollout for groups and duplicates, its summary handed on', () => {
    const handed: string[] = [];
    const session = new LintSession({}, { parseError: () => undefined, rollout: (r) => handed.push(r.rollout_id) });
    const n = 100_000;
    const before = heapAfterGc();
    for (let i = 0; i < n; i++) {
      const summary = buildSummary({
        rollout_id: `rollout-${i}`,
        attempt_id: 'a-1',
        group_id: `task-${i >> 3}@v-1`,
        line: i + 1,
        reward: i % 2,
      });
      session.addSummary(summary, { policy: 'v-1', env: 'env-1', sampling: JSON.stringify({ temperature: 1, top_p: 0.95 }) });
    }
    const perRollout = (heapAfterGc() - before) / n;
    expect(handed).toHaveLength(n);
    expect(perRollout).toBeLessThan(400);
    expect(session.totals().groups).toHaveLength(n / 8);
  });
});
