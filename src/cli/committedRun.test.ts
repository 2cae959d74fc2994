import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { type FailureMode, FailureModes, LintSession, mismatchDeltas, mismatchStats, summarizeRollout, terminationInfo } from '../analysis';
import { pythonVersion, toJsonl } from '../demo/generate';
import { type TrainRunOptions, trainRun } from '../demo/trainRun';
import { parseLine, type Rollout } from '../format';
import { DEMO_RUN_FILES, DEMO_RUN_TRAINING_STEPS, demoRunIndex, demoRunUrls } from '../state';
import { buildIndex, readManifest } from './runIndex/build';
import { readIndexRows } from './runIndex/shardRows';

/*
 * Guards public/demo/run/ and its README section: the files are what the documented command makes
 * (the first two steps re-run here), the policy learns, the sampler's lag shows in §10's statistics,
 * and the app's list of the run's files is the directory. Update them together.
 */
const DIR = new URL('../../public/demo/run/', import.meta.url);
/** public/demo/README.md: `trajscope demo --train --steps 24 --seed 1 --async 1 --gzip --out public/demo/run`. */
const COMMAND: TrainRunOptions = { steps: 24, seed: 1, async: 1, drGrpo: false, perGroup: 4 };

// Dot-names are not run files (a `query public/demo/run` leaves its index in .trajscope/).
const names = readdirSync(DIR)
  .filter((n) => !n.startsWith('.'))
  .sort();
const texts = names.map((n) => gunzipSync(readFileSync(new URL(n, DIR))).toString('utf8'));
const steps: Rollout[][] = texts.map((t, i) =>
  t
    .trimEnd()
    .split('\n')
    .map((line, j) => {
      const r = parseLine(line, j + 1, names[i] ?? '');
      if (r?.kind !== 'rollout') throw new Error(`${names[i]}:${j + 1} does not parse`);
      return r.value.record;
    }),
);
const samePython = steps[0]?.[0]?.environment_version?.endsWith(`+python${pythonVersion()}`) === true;

const inSignalMean = (rs: readonly Rollout[]) => {
  const rewards = rs.flatMap((r) =>
    r.termination === 'infra_failure' || r.termination === 'cancelled' || r.reward == null ? [] : [r.reward],
  );
  return rewards.reduce((a, b) => a + b, 0) / rewards.length;
};
const mean = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

describe('the committed demo training run', () => {
  it('has one gzip file per step, as the app lists them', () => {
    expect(names).toHaveLength(DEMO_RUN_FILES);
    // One training step fewer than files: the sampler runs one update behind (demoRun.ts).
    expect(new Set(steps.flat().map((r) => r.training_step)).size).toBe(DEMO_RUN_TRAINING_STEPS);
    expect(demoRunUrls('/').map((u) => u.slice('/demo/run/'.length))).toEqual(names);
    steps.forEach((records, s) => {
      expect(records).toHaveLength(4 * COMMAND.perGroup);
      for (const r of records) {
        expect(r.training_step).toBe(Math.max(0, s - COMMAND.async));
        expect(r.policy_version).toBe(`v-${String(Math.max(0, s - COMMAND.async)).padStart(4, '0')}`);
        if (r.training) expect(r.training.update?.step).toBe(s);
      }
    });
  });

  it('has the run index the page opens (public/demo/run-index/): what `trajscope index` makes of the files', async () => {
    // Made by `npm run --silent trajscope -- index public/demo/run --out public/demo/run-index --jobs 1`.
    const committed = fileURLToPath(new URL('../../public/demo/run-index/', import.meta.url));
    expect(demoRunIndex('/')).toBe('/demo/run-index/');
    const fresh = join(mkdtempSync(join(tmpdir(), 'trajscope-demo-index-')), 'index');
    await buildIndex({ inputs: [fileURLToPath(DIR)], outDir: fresh, jobs: 1 });
    const [a, b] = [await readManifest(committed), await readManifest(fresh)];
    if (!a || !b) throw new Error('no manifest');
    // The file times are the checkout's and the shard names carry the time they were written: the rest is equal.
    const comparable = (m: typeof a) => ({
      ...m,
      source_base: m === a ? m.source_base : '../run',
      files: m.files.map((f) => ({ ...f, mtime_ms: 0, shards: f.shards.map((sh) => ({ ...sh, path: '' })) })),
    });
    expect(comparable(a)).toEqual(comparable(b));
    expect(await readIndexRows(committed, a)).toEqual(await readIndexRows(fresh, b));
  }, 60_000);

  it("keeps each failing rollout's failure signature, so the modes from the index are the modes from the records", async () => {
    const committed = fileURLToPath(new URL('../../public/demo/run-index/', import.meta.url));
    const manifest = await readManifest(committed);
    if (!manifest) throw new Error('no manifest');
    const rows = await readIndexRows(committed, manifest);
    const failing = steps.flat().filter((r) => terminationInfo(r.termination).inSignal === false || (r.reward ?? 0) < 1);
    expect(rows.filter((r) => r.failure_mode !== null)).toHaveLength(failing.length);
    const fromRecords = new FailureModes();
    steps.forEach((records, f) => {
      records.forEach((record, i) => {
        fromRecords.add(record, summarizeRollout({ file: names[f] ?? '', line: i + 1, record }));
      });
    });
    const fromIndex = new FailureModes();
    for (const r of rows) {
      const key = r.attempt_id === null ? r.rollout_id : `${r.rollout_id}#${r.attempt_id}`;
      const failure = r.failure_mode === null ? null : { name: r.failure_mode, features: r.failure_features?.split(' ') ?? [] };
      fromIndex.addInput({ failure, step: r.training_step, task_id: r.task_id, key, file: r.file, line: r.line });
    }
    const brief = (m: FailureMode) => [m.name, m.count, m.steps.map((s) => s.count).join(',')];
    expect(fromIndex.result().modes.map(brief)).toEqual(fromRecords.result().modes.map(brief));
  });

  it('is charted in public/demo/README.md by training step, as the run page charts it (issue 31: the columns were files)', () => {
    const readme = readFileSync(new URL('../../public/demo/README.md', import.meta.url), 'utf8');
    const cells = (prefix: string) =>
      readme
        .split('\n')
        .filter((l) => l.startsWith(prefix))
        .flatMap((l) =>
          l
            .split('|')
            .slice(2, -1)
            .map((c) => c.replace(/\*/g, '').trim()),
        )
        .filter((c) => c !== '');
    const byStep = new Map<number, Rollout[]>();
    for (const r of steps.flat()) {
      const k = typeof r.training_step === 'number' ? r.training_step : -1;
      byStep.set(k, [...(byStep.get(k) ?? []), r]);
    }
    const order = [...byStep.keys()].sort((x, y) => x - y);
    expect(cells('| training step').concat(cells('| **training step**')).map(Number)).toEqual(order);
    expect(cells('| in-signal reward mean').map(Number)).toEqual(order.map((k) => Number(inSignalMean(byStep.get(k) ?? []).toFixed(3))));
  });

  it('learns: the in-signal reward mean of the last three steps is well above the first three', () => {
    const means = steps.map(inSignalMean);
    expect(mean(means.slice(-3)) - mean(means.slice(0, 3))).toBeGreaterThan(0.25);
  });

  it('lints clean but for zero-variance groups, and never trains an excluded rollout', () => {
    const session = new LintSession();
    steps.flat().forEach((record, i) => {
      session.addRollout({ file: 'run', line: i + 1, record });
    });
    const report = session.report();
    expect(report.rollouts.flatMap((r) => r.findings.map((f) => `${r.rollout_id}: ${f.code}`))).toEqual([]);
    expect(new Set(report.groups.flatMap((g) => g.findings.map((f) => f.code)))).toEqual(new Set(['W_ZERO_VARIANCE_GROUP']));
    const excluded = steps.flat().filter((r) => r.termination === 'infra_failure');
    expect(excluded.length).toBeGreaterThan(0);
    for (const r of excluded) expect([r.reward, r.training]).toEqual([null, undefined]);
  });

  it('shows the one-step sampler lag in the mismatch statistics (§10): none at step 0, real drift after', () => {
    const stats = steps.map((rs) => mismatchStats(rs.flatMap(mismatchDeltas)));
    expect(stats[0]).toMatchObject({ mean_abs: 0, max_abs: 0, ratio_mean: 1, kl_k3: 0 });
    for (const m of stats.slice(1)) {
      expect(m.n).toBeGreaterThan(1000);
      expect(m.mean_abs ?? 0).toBeGreaterThan(0);
      expect(m.kl_k3 ?? 0).toBeGreaterThan(0);
    }
  });

  it.skipIf(!samePython)(
    'is what the documented command makes: the first two steps re-run to the same bytes',
    async () => {
      const again: string[] = [];
      for await (const b of trainRun({ ...COMMAND, steps: 2 })) again.push(toJsonl(b.records));
      expect(again).toEqual(texts.slice(0, 2));
    },
    120_000,
  );
});
