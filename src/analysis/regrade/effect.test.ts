import { readdirSync, readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { parquetReadObjects } from 'hyparquet';
import { describe, expect, it } from 'vitest';
import { parseLine, parseRegradeJournal, regradeRowsOf } from '../../format';
import { buildSummary } from '../../testing/builders';
import { buildRegradeRow } from '../../testing/regradeRows';
import { LintSession } from '../lint';
import { regradeEffect } from './effect';

const row = buildRegradeRow;

/** Four rollouts of group A (rewards 0, 0, 1, 1) and two of B (both 0: zero variance). */
const rollouts = [
  buildSummary({ file: 'a.jsonl', line: 1, rollout_id: 'r1', attempt_id: null, group_id: 'A', reward: 0 }),
  buildSummary({ file: 'a.jsonl', line: 2, rollout_id: 'r2', attempt_id: null, group_id: 'A', reward: 0 }),
  buildSummary({ file: 'a.jsonl', line: 3, rollout_id: 'r3', attempt_id: null, group_id: 'A', reward: 1 }),
  buildSummary({ file: 'a.jsonl', line: 4, rollout_id: 'r4', attempt_id: null, group_id: 'A', reward: 1 }),
  buildSummary({ file: 'a.jsonl', line: 5, rollout_id: 'r5', attempt_id: null, group_id: 'B', reward: 0 }),
  buildSummary({ file: 'a.jsonl', line: 6, rollout_id: 'r6', attempt_id: null, group_id: 'B', reward: 0 }),
];
const same = (i: number) => {
  const r = rollouts[i - 1];
  const verdict = r?.reward === 1 ? 'pass' : 'fail';
  return row({
    line: i,
    rollout_id: `r${i}`,
    old_reward: r?.reward ?? null,
    new_reward: r?.reward ?? null,
    old_verdict: verdict,
    new_verdict: verdict,
  });
};

describe('regradeEffect on hand-made groups', () => {
  it('a regrade that agrees changes nothing', () => {
    const e = regradeEffect({ rollouts, rows: [1, 2, 3, 4, 5, 6].map(same), normalizeStd: true });
    expect([e.matched, e.unmatched, e.regraded, e.flips.length, e.changedGroups.length]).toEqual([6, 0, 6, 0, 0]);
    expect(e.zeroVarianceBefore).toBe(1);
    expect(e.newAdvantages).toEqual(e.oldAdvantages);
  });

  it('one fail → pass: its group statistics and advantages by hand, GRPO and Dr. GRPO', () => {
    const rows = [same(1), row({ line: 2, rollout_id: 'r2', new_reward: 1, new_verdict: 'pass' }), same(3), same(4)];
    const e = regradeEffect({ rollouts, rows, normalizeStd: true });
    expect([e.failToPass, e.passToFail]).toEqual([1, 0]);
    expect(e.flips.map((f) => [f.index, f.oldReward, f.newReward, f.verdictChanged, f.rewardChanged])).toEqual([[1, 0, 1, true, true]]);
    // Before: 0 0 1 1, mean 0.5, sample std sqrt(4 * 0.25 / 3) = 0.57735; r2: -0.5 / 0.57735 = -0.86603.
    // After: 0 1 1 1, mean 0.75, std sqrt((0.5625 + 3 * 0.0625) / 3) = 0.5; r2: 0.25 / 0.5 = 0.5, r1: -1.5.
    const [flip] = e.flips;
    expect(flip?.oldAdvantage).toBeCloseTo(-0.86603, 4);
    expect(flip?.newAdvantage).toBeCloseTo(0.5, 5);
    expect(e.newAdvantages[0]).toBeCloseTo(-1.5, 5);
    expect(e.changedGroups).toEqual([
      {
        group_id: 'A',
        rollouts: 4,
        regraded: 4,
        old: { n: 4, mean: 0.5, std: expect.closeTo(0.57735, 4), zeroVariance: false },
        new: { n: 4, mean: 0.75, std: expect.closeTo(0.5, 9), zeroVariance: false },
        advantagesChanged: 4,
      },
    ]);
    const dr = regradeEffect({ rollouts, rows, normalizeStd: false });
    expect([dr.flips[0]?.oldAdvantage, dr.flips[0]?.newAdvantage]).toEqual([-0.5, 0.25]);
  });

  it('names the groups that became and stopped being zero-variance', () => {
    const rows = [
      ...[1, 2].map(same),
      row({ line: 3, rollout_id: 'r3', old_reward: 1, old_verdict: 'pass', new_reward: 0, new_verdict: 'fail' }),
      row({ line: 4, rollout_id: 'r4', old_reward: 1, old_verdict: 'pass', new_reward: 0, new_verdict: 'fail' }),
      row({ line: 5, rollout_id: 'r5', new_reward: 1, new_verdict: 'pass' }),
    ];
    const e = regradeEffect({ rollouts, rows, normalizeStd: true });
    expect([e.failToPass, e.passToFail]).toEqual([1, 2]);
    expect(e.becameZeroVariance).toEqual(['A']);
    expect(e.stoppedZeroVariance).toEqual(['B']);
    expect([e.zeroVarianceBefore, e.zeroVarianceAfter]).toEqual([1, 1]);
    expect(e.newAdvantages.slice(0, 4)).toEqual([0, 0, 0, 0]);
  });

  it('an errored row keeps the old reward and is counted by kind; a row of no loaded rollout is unmatched', () => {
    const rows = [
      row({ line: 2, rollout_id: 'r2', new_reward: null, new_verdict: null, error_kind: 'timeout', error: 'no verdict' }),
      row({ line: 9, rollout_id: 'r-gone', new_reward: 1 }),
      row({ line: 3, rollout_id: 'r3', old_reward: 1, new_reward: 1, new_verdict: null, error_kind: 'crash' }),
    ];
    const e = regradeEffect({ rollouts, rows, normalizeStd: true });
    expect([e.matched, e.unmatched, e.regraded]).toEqual([2, 1, 0]);
    expect([...e.errors]).toEqual([
      ['timeout', 1],
      ['crash', 1],
    ]);
    expect(e.newRewards).toEqual(rollouts.map((r) => r.reward));
    expect(e.flips).toEqual([]);
    expect(e.changedGroups).toEqual([]);
  });

  it('matches by (file, line) first, by rollout key when the file is named otherwise, and never a duplicate key', () => {
    const moved = row({ file: 'public/demo/a.jsonl', line: 2, rollout_id: 'r2', new_reward: 1 });
    const e = regradeEffect({ rollouts, rows: [moved], normalizeStd: true });
    expect([e.matched, e.matchedByKey, e.flips[0]?.index]).toEqual([1, 1, 1]);
    // Another rollout at (file, line): the key decides.
    const shifted = row({ line: 1, rollout_id: 'r3', old_reward: 1, new_reward: 0 });
    expect(regradeEffect({ rollouts, rows: [shifted], normalizeStd: true }).flips[0]?.index).toBe(2);
    const twice = [...rollouts, buildSummary({ file: 'b.jsonl', line: 1, rollout_id: 'r2', attempt_id: null, group_id: 'A' })];
    expect(regradeEffect({ rollouts: twice, rows: [moved], normalizeStd: true }).unmatched).toBe(1);
  });

  it('the in-signal reward mean per training step, old and new; excluded rollouts are not counted', () => {
    const withExcluded = [
      ...rollouts,
      buildSummary({ line: 7, rollout_id: 'r7', termination: 'infra_failure', reward: null, group_id: 'B' }),
    ];
    const rows = [row({ line: 2, rollout_id: 'r2', new_reward: 1, new_verdict: 'pass' })];
    const e = regradeEffect({ rollouts: withExcluded, trainingSteps: [0, 0, 1, 1, 1, null, 0], rows, normalizeStd: true });
    expect(e.trend).toEqual([
      { step: 0, oldMean: 0, newMean: 0.5, n: 2 },
      { step: 1, oldMean: 2 / 3, newMean: 2 / 3, n: 3 },
    ]);
    expect(regradeEffect({ rollouts, rows, normalizeStd: true }).trend).toEqual([]);
  });
});

describe('regradeEffect on the demo file with the lenient grader (scripts/demo-grader-lenient.mjs)', () => {
  const session = new LintSession();
  readFileSync(new URL('../../../public/demo/rollouts.jsonl', import.meta.url), 'utf8')
    .split('\n')
    .forEach((text, i) => {
      const r = parseLine(text, i + 1, 'rollouts.jsonl');
      if (r) session.add(r);
    });
  const report = session.report();
  // The real journal of `trajscope regrade public/demo/rollouts.jsonl --grader "node $PWD/scripts/demo-grader-lenient.mjs"`.
  const rows = parseRegradeJournal(readFileSync(new URL('./demo-lenient.journal', import.meta.url), 'utf8'));
  const e = regradeEffect({ rollouts: report.rollouts, rows, normalizeStd: true });

  it('flips exactly r-g1-02 and r-g1-07 from fail to pass, every row matched by key (the page names the file otherwise)', () => {
    expect(rows.length).toBe(report.rollouts.length);
    expect([e.matched, e.unmatched, e.matchedByKey]).toEqual([rows.length, 0, rows.length]);
    expect(e.flips.map((f) => [f.row.rollout_id, f.oldVerdict, f.newVerdict, f.oldReward, f.newReward])).toEqual([
      ['r-g1-02', 'fail', 'pass', 0, 1],
      ['r-g1-07', 'fail', 'pass', 0, 1],
    ]);
    expect([e.failToPass, e.passToFail, e.oldRewardDiffers]).toEqual([2, 0, 0]);
    const errored = rows.filter((r) => r.error_kind !== null).length;
    expect(e.regraded + [...e.errors.values()].reduce((a, b) => a + b, 0)).toBe(rows.length);
    expect(e.errors.get('no_artifact')).toBe(errored);
  });

  it('the old advantages are the lint report’s, and group g1 changes as computed by hand', () => {
    expect(e.oldAdvantages).toEqual(session.advantages(true));
    // g1 before: 0 0 0 1 1 1 0 1, mean 0.5, std sqrt(8 * 0.25 / 7) = 0.534522; after: 0 1 0 1 1 1 1 1,
    // mean 0.75, std sqrt((2 * 0.5625 + 6 * 0.0625) / 7) = 0.462910.
    expect(e.changedGroups.map((g) => g.group_id)).toEqual(['g1:binary-search-001@v-1']);
    const [g1] = e.changedGroups;
    expect(g1?.old.mean).toBe(0.5);
    expect(g1?.old.std).toBeCloseTo(0.534522, 5);
    expect(g1?.new.mean).toBe(0.75);
    expect(g1?.new.std).toBeCloseTo(0.46291, 5);
    const adv = (id: string) => {
      const i = report.rollouts.findIndex((r) => r.rollout_id === id);
      return [e.oldAdvantages[i], e.newAdvantages[i]];
    };
    for (const id of ['r-g1-02', 'r-g1-07']) {
      const [before, after] = adv(id);
      expect(before).toBeCloseTo(-0.5 / 0.534522, 4); // -0.935414
      expect(after).toBeCloseTo(0.25 / 0.46291, 4); // 0.540062
    }
    const [before, after] = adv('r-g1-01');
    expect(before).toBeCloseTo(-0.935414, 4);
    expect(after).toBeCloseTo(-0.75 / 0.46291, 4); // -1.620185
    expect(adv('r-g1-04')[1]).toBeCloseTo(0.540062, 4);
    expect([e.becameZeroVariance, e.stoppedZeroVariance]).toEqual([[], []]);
  });
});

// The table `trajscope regrade public/demo/run --grader "node $PWD/scripts/demo-grader-lenient.mjs"` wrote.
const RUN_TABLE = readFileSync(new URL('./demo-run-lenient.parquet', import.meta.url));
const runRows = regradeRowsOf(
  await parquetReadObjects({ file: RUN_TABLE.buffer.slice(RUN_TABLE.byteOffset, RUN_TABLE.byteOffset + RUN_TABLE.byteLength) }),
);

describe('regradeEffect on the committed demo run with the lenient grader', () => {
  const DIR = new URL('../../../public/demo/run/', import.meta.url);
  const session = new LintSession();
  const steps: (number | null)[] = [];
  const verdicts: (string | null)[] = [];
  for (const name of readdirSync(DIR)
    .filter((n) => n.endsWith('.jsonl.gz'))
    .sort())
    gunzipSync(readFileSync(new URL(name, DIR)))
      .toString('utf8')
      .trimEnd()
      .split('\n')
      .forEach((text, i) => {
        const r = parseLine(text, i + 1, name);
        if (r?.kind !== 'rollout') throw new Error(`${name}:${i + 1} does not parse`);
        session.add(r);
        const step = r.value.record.training_step;
        steps.push(typeof step === 'number' ? step : null);
        verdicts.push(r.value.record.grading?.verdict ?? null);
      });
  const { rollouts } = session.report();
  const rows = runRows;
  const e = regradeEffect({ rollouts, trainingSteps: steps, rows, normalizeStd: true });

  it('reports the flips counted from the records: stored verdict against the regrade’s, matched by file and line', () => {
    const byPlace = new Map(rows.map((r) => [`${r.file}:${r.line}`, r]));
    const byHand = rollouts.flatMap((r, i) => {
      const row = byPlace.get(`${r.file}:${r.line}`);
      const old = verdicts[i] ?? null;
      return row && row.error_kind === null && old !== null && row.new_verdict !== null && row.new_verdict !== old ? [r.rollout_id] : [];
    });
    expect(byHand).toHaveLength(5);
    expect(e.flips.map((f) => rollouts[f.index]?.rollout_id)).toEqual(byHand);
    expect([e.matched, e.matchedByKey, e.unmatched, e.failToPass, e.passToFail]).toEqual([384, 0, 0, 5, 0]);
  });

  it('raises the reward trend at exactly the steps of the flips, by 1 / (in-signal rewards of the step) each', () => {
    const flippedSteps = new Map<number, number>();
    for (const f of e.flips) flippedSteps.set(steps[f.index] ?? -1, (flippedSteps.get(steps[f.index] ?? -1) ?? 0) + 1);
    for (const p of e.trend) {
      const n = rollouts.filter((r, i) => steps[i] === p.step && r.in_signal && r.reward !== null).length;
      expect((p.newMean ?? 0) - (p.oldMean ?? 0)).toBeCloseTo((flippedSteps.get(p.step) ?? 0) / n, 12);
    }
    expect(e.changedGroups.length).toBeGreaterThan(0);
    expect(e.changedGroups.length).toBeLessThanOrEqual(5);
  });
});
