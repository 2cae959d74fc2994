// `npm run bench` (second part): a run of 1,000,000 rollouts opened from its run index in headless
// Chromium through the real app, from a plain static host answering ranges (docs/adr/0015). Prints:
//   bench-run: rows <n>, held <MB> MB, first chart <ms> ms, loaded <ms> ms, re-aggregate <ms> ms, rollout <ms> ms[, modes <ms> ms][, modes page <ms> ms (longest task <ms> ms)]
// BENCH_RUN_ROUNDS=N measures the page N times (default 2). BENCH_RUN_SCREENSHOTS=DIR saves the page at its first chart (still reading) and once every shard is read.
// Targets (issues 13, 25): held <= 150 MB, first chart <= 1.5 s in every round, re-aggregation after a filter
// <= 100 ms, one rollout opened (range read, parse, expand, drawn) <= 200 ms in every round. Issue 26: failure modes over the rows at most
// 1.5 x the time of indexing as many rollouts (the modes of a CLI over the index's rows, in this process), and
// the page's Failure modes of the whole run drawn in at most 2 s with no task over 50 ms.
//
// The index: a file of the bench's generator (scripts/make-large-jsonl.mjs) indexed by `trajscope index`,
// then its rows replicated over 1,000 training steps with fresh ids, groups and rewards (the reward rises
// with the step, as a learning run's does) and written with encodeIndexShard. Every row points at real
// bytes of that file; the rollout opened is one of the file's own rows.
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { cpus, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { inspect } from 'node:util';
import { chromium } from '@playwright/test';
import { parquetReadObjects } from 'hyparquet';
import sirv from 'sirv';
import { buildIndex } from '../src/cli/runIndex/build.ts';
import { encodeIndexShard, indexRowFrom } from '../src/format/runIndex/columns.ts';
import { CHROMIUM_ARGS, CHROMIUM_PATH, chromiumMissing, INSTALL_HINT } from './chromium.mjs';
import { writeLargeJsonl } from './make-large-jsonl.mjs';

const ROWS = Number(process.env.BENCH_RUN_ROWS ?? 1_000_000);
/** Rounds of the page's measurements (issue 25's "five runs in a row": BENCH_RUN_ROUNDS=5). */
const ROUNDS = Number(process.env.BENCH_RUN_ROUNDS ?? 2);
const STEPS = 1000;
const PER_GROUP = 8;
const SHARD_ROWS = 100_000;
const FILE_MB = 16;
const SEED = 20261201;
const TARGET = { heldMb: 150, firstChartMs: 1500, aggregateMs: 100, rolloutMs: 200, modesVsIndex: 1.5, modesPageMs: 2000, longTaskMs: 50 };

if (chromiumMissing()) {
  console.error(`Chromium not found at ${CHROMIUM_PATH}.\n${INSTALL_HINT}`);
  process.exit(1);
}
if (!statSync('dist/index.html', { throwIfNoEntry: false })) {
  console.error('bench-run: run `npx vite build` first (npm run bench builds it)');
  process.exit(1);
}

const dir = mkdtempSync(join(tmpdir(), 'trajscope-bench-run-'));
const site = join(dir, 'site');
cpSync('dist', site, { recursive: true, filter: (s) => !s.endsWith('.map') });
mkdirSync(join(site, 'run'));
const file = join(site, 'run', 'bench.jsonl');
console.error(`bench-run: generating ${FILE_MB} MB of rollouts (seed ${SEED}) and indexing them…`);
await writeLargeJsonl(file, FILE_MB, SEED);
const indexStart = performance.now();
const real = await buildIndex({ inputs: [join(site, 'run')], outDir: join(dir, 'real-index'), jobs: 1 });
const indexMs = performance.now() - indexStart;
const realRows = [];
for (const f of real.manifest.files) {
  for (const s of f.shards) {
    const buf = readFileSync(join(dir, 'real-index', s.path));
    const ab = buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.byteLength);
    for (const o of await parquetReadObjects({ file: ab })) realRows.push(indexRowFrom(o));
  }
}

// xorshift32, as the bench generator's.
let seed = SEED;
const rand = () => {
  seed ^= seed << 13;
  seed ^= seed >>> 17;
  seed ^= seed << 5;
  return (seed >>> 0) / 2 ** 32;
};
/**
 * Failure signatures of the synthetic rows: a failing row (excluded, or rewarded below 1) gets one of a few
 * dozen, by its termination, as a real run's repeat a few messages; a passing row none. A commit older than
 * the signatures ignores the columns.
 */
const FAILURE_LINES = {
  finished: [
    '(fail) · grader: <n> of <n> private tests failed',
    ' · run_tests: find <n>: failed (expected <n>, got <n>)',
    ' · edit: error: old text not found in <path>',
  ],
  budget_exhausted: [
    ' · budget: <n> of <n> actions used',
    ' · run_tests: insert <n>: over budget (exceeded its budget of <n> line events)',
  ],
  invalid_call: [' · run_shell: error: unknown tool <str>; the harness rejected the call'],
  infra_failure: [' · run_tests: infrastructure failure: test process killed by SIGKILL (no observation reached the model)'],
};
const FAILURE_FEATURES = ['last:run_tests', 'last:edit regression:revert', 'last:read_file', 'last:finish code:W_SCAN'];
function failureOf(termination, inSignal, reward) {
  if (inSignal && reward !== null && reward >= 1) return { failure_mode: null, failure_features: null };
  const lines = FAILURE_LINES[termination] ?? FAILURE_LINES.finished;
  const line = lines[Math.floor(rand() * lines.length)];
  const name = line.startsWith('(') ? `${termination} ${line}` : `${termination}${line}`;
  return { failure_mode: name, failure_features: FAILURE_FEATURES[Math.floor(rand() * FAILURE_FEATURES.length)] };
}

const TERMS = ['finished', 'finished', 'finished', 'finished', 'finished', 'finished', 'budget_exhausted', 'invalid_call', 'infra_failure'];
function syntheticRow(k) {
  const base = realRows[k % realRows.length];
  if (k < realRows.length) return base; // the file's own rows, exactly as indexed: these open as themselves
  const step = Math.floor((k * STEPS) / ROWS);
  const group = Math.floor(k / PER_GROUP);
  const termination = TERMS[Math.floor(rand() * TERMS.length)];
  const inSignal = termination !== 'infra_failure';
  const p = 0.3 + (0.6 * step) / STEPS;
  const truncated = rand() < 0.03;
  const reward = inSignal ? (rand() < p ? 1 : 0) : null;
  return {
    ...base,
    rollout_id: `r-${k}`,
    task_id: `task-${group % 50}`,
    group_id: `g-${group}`,
    policy_version: `v-${step}`,
    training_step: step,
    termination,
    in_signal: inSignal,
    reward,
    ...failureOf(termination, inSignal, reward),
    generated_tokens: 200 + Math.floor(rand() * 600),
    truncated,
    regressions: rand() < 0.1 ? 1 : 0,
    finding_codes: truncated ? ['W_HIT_MAX_TOKENS'] : [],
    warnings: truncated ? 1 : 0,
    mismatch_max_abs: rand() * 0.2,
    mismatch_kl_k3: rand() * 0.01,
  };
}

console.error(`bench-run: writing ${ROWS.toLocaleString('en-US')} index rows in shards of ${SHARD_ROWS.toLocaleString('en-US')}…`);
const indexDir = join(site, 'index');
mkdirSync(join(indexDir, 'shards'), { recursive: true });
const realFile = real.manifest.files[0];
const shards = [];
let indexBytes = 0;
// The failure modes of the rows, as a CLI over the index reads them (FailureModes.addInput per row); absent
// in a commit older than the signatures, where the figure is n/a.
const { FailureModes } = await import('../src/analysis/index.ts');
const modes = typeof FailureModes?.prototype?.addInput === 'function' ? new FailureModes() : null;
let modesMs = 0;
for (let from = 0; from < ROWS; from += SHARD_ROWS) {
  const rows = [];
  for (let k = from; k < Math.min(ROWS, from + SHARD_ROWS); k++) rows.push(syntheticRow(k));
  if (modes) {
    const t = performance.now();
    for (const r of rows) {
      const failure = r.failure_mode ? { name: r.failure_mode, features: r.failure_features?.split(' ') ?? [] } : null;
      modes.addInput({ failure, step: r.training_step, task_id: r.task_id, key: r.rollout_id, file: r.file, line: r.line });
    }
    modesMs += performance.now() - t;
  }
  const bytes = new Uint8Array(encodeIndexShard(rows));
  const path = `shards/part-${String(shards.length).padStart(3, '0')}.parquet`;
  writeFileSync(join(indexDir, path), bytes);
  indexBytes += bytes.length;
  shards.push({
    path,
    rows: rows.length,
    from_line: 1,
    to_line: realRows.length,
    from_byte: 0,
    to_byte: realFile.size,
    bytes: bytes.length,
  });
}
const modesResult = modes?.result() ?? null;
// Indexing as many rollouts as the run has rows, at the rate this process indexed the real file.
const indexAllMs = (indexMs / realRows.length) * ROWS;
writeFileSync(join(indexDir, 'manifest.json'), JSON.stringify({ version: 1, source_base: '../run', files: [{ ...realFile, shards }] }));
realRows.length = Math.min(realRows.length, 1);

// A plain static host (sirv answers one range per request), logging the range reads of the run's file.
const ranges = [];
const serve = sirv(site, { dev: false });
const server = createServer((req, res) => {
  if (req.url?.startsWith('/run/') && req.headers.range) ranges.push(req.headers.range);
  serve(req, res, () => res.writeHead(404).end());
});
await new Promise((r) => server.listen(0, '127.0.0.1', r));
const base = `http://127.0.0.1:${server.address().port}/`;

const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: [...CHROMIUM_ARGS, '--enable-precise-memory-info'] });
const results = [];
try {
  for (let round = 0; round < ROUNDS; round++) {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    page.on('pageerror', (e) => console.error('bench-run: page error:', e.message));
    const cdp = await context.newCDPSession(page);
    await page.goto(`${base}?run=index/`);
    // First chart: the reward line drawn, in page time (from navigation start).
    // What the page said at that moment: how much of the run the first chart shows.
    const first = await (
      await page.waitForFunction(
        () =>
          document.querySelector('[aria-label="Reward"] .recharts-line-curve') && {
            ms: performance.now(),
            read: /Reading the run index: ([\d,]+ of [\d,]+)/.exec(document.body.textContent ?? '')?.[1] ?? 'all',
          },
        null,
        { polling: 'raf', timeout: 120_000 },
      )
    ).jsonValue();
    const firstChart = first.ms;
    // BENCH_RUN_SCREENSHOTS=DIR: what a person sees while the run is still being read, and once it is.
    const shots = process.env.BENCH_RUN_SCREENSHOTS;
    if (shots && round === 0) await page.screenshot({ path: join(shots, 'run-1m-reading.png'), fullPage: true });
    const timings = await page.evaluate(() =>
      performance
        .getEntriesByType('resource')
        .filter((e) => /parquet|manifest|RunPage|CartesianChart|index-/.test(e.name))
        .map((e) => `${e.name.split('/').pop()} ${e.startTime.toFixed(0)}-${e.responseEnd.toFixed(0)}`),
    );
    console.error('bench-run: until the first chart', timings.slice(0, 8).join(', '));
    const loaded = await (
      await page.waitForFunction(
        (rows) =>
          document.querySelector('[aria-label="Run"]')?.textContent?.startsWith(`${rows.toLocaleString('en-US')} rollouts`) &&
          !document.body.textContent?.includes('Reading the run index') &&
          performance.now(),
        ROWS,
        { polling: 100, timeout: 300_000 },
      )
    ).jsonValue();
    if (shots && round === 0) await page.screenshot({ path: join(shots, 'run-1m-read.png'), fullPage: true });
    await cdp.send('HeapProfiler.collectGarbage');
    await cdp.send('HeapProfiler.collectGarbage');
    const heap = await cdp.send('Runtime.getHeapUsage');
    const held = heap.usedSize + (heap.backingStorageSize ?? 0);

    // Re-aggregation after a filter: one task chosen; the aggregation's own measure, and until the charts repaint.
    const task = page.getByLabel('Task');
    const option = await task.locator('option').nth(3).getAttribute('value');
    const before = await page.evaluate(() => performance.getEntriesByName('trajscope:run-aggregate').length);
    const t0 = await page.evaluate(() => performance.now());
    await task.selectOption(option ?? '');
    const repaint = await page.evaluate(
      async ({ n, t0 }) => {
        while (performance.getEntriesByName('trajscope:run-aggregate').length <= n) await new Promise((r) => requestAnimationFrame(r));
        await new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
        return performance.now() - t0;
      },
      { n: before, t0 },
    );
    const aggregate = await page.evaluate(() => performance.getEntriesByName('trajscope:run-aggregate').at(-1)?.duration ?? null);

    // One rollout of the run (a row of step 0, one of the file's own): range read, parse, expand, its steps drawn.
    const rangesBefore = ranges.length;
    const rolloutMs = await page.evaluate(async () => {
      const t = performance.now();
      window.history.pushState(null, '', '?run=index/&view=rollout&steps=0&rollout=r-5%23a-1');
      window.dispatchEvent(new Event('trajscope:navigate'));
      while (!document.querySelector('.steps__item')) await new Promise((r) => requestAnimationFrame(r));
      return performance.now() - t;
    });
    const shown = await page.locator('main').textContent();
    if (!shown?.includes('r-5')) throw new Error('the rollout page does not show r-5');
    if (ranges.length !== rangesBefore + 1)
      throw new Error(`expected one range read of the run's file, saw ${ranges.length - rangesBefore}`);
    // The Failure modes page of the whole run: until its first mode is drawn, and the longest task until its
    // chart is drawn too.
    // BENCH_RUN_PROFILE=DIR keeps a CPU profile of it (open in Chrome's Performance panel).
    const profile = process.env.BENCH_RUN_PROFILE;
    if (profile) {
      await cdp.send('Profiler.enable');
      await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
      await cdp.send('Profiler.start');
    }
    const modesPage = await page.evaluate(async () => {
      // From the run page, once it is idle: the rollout just opened may still be highlighting its code
      // (shiki), a long task of that page, not of this one.
      window.history.pushState(null, '', '?run=index/');
      window.dispatchEvent(new Event('trajscope:navigate'));
      while (!document.querySelector('[aria-label="Reward"] .recharts-line-curve')) await new Promise((r) => requestAnimationFrame(r));
      await new Promise((r) => setTimeout(r, 1000));
      const long = [];
      const observer = new PerformanceObserver((list) => {
        for (const e of list.getEntries()) long.push([e.startTime, e.duration]);
      });
      observer.observe({ type: 'longtask' });
      const t = performance.now();
      window.history.pushState(null, '', '?run=index/&view=modes');
      window.dispatchEvent(new Event('trajscope:navigate'));
      while (!document.querySelector('.mode-row')) {
        if (performance.now() - t > 20_000) return null; // a commit without the page: a miss (modesOk)
        await new Promise((r) => requestAnimationFrame(r));
      }
      const ms = performance.now() - t;
      // Long tasks are counted until the chart below the first modes has every line of its legend drawn
      // (it draws in parts, one per render), and 100 ms more.
      const lines = () => document.querySelectorAll('.modes-chart .recharts-line-curve').length;
      const legend = () => document.querySelectorAll('.modes-chart__legend li').length;
      while (legend() === 0 || lines() < legend()) {
        if (performance.now() - t > 20_000) return null;
        await new Promise((r) => requestAnimationFrame(r));
      }
      await new Promise((r) => setTimeout(r, 100));
      observer.disconnect();
      // Each long task as [ms after the click, duration]: which part of the page's work it was.
      const tasks = long.map(([at, d]) => [Math.round(at - t), Math.round(d)]);
      return { ms, longest: long.length ? Math.max(...long.map(([, d]) => d)) : 0, tasks };
    });
    if (profile) {
      const { profile: cpu } = await cdp.send('Profiler.stop');
      writeFileSync(join(profile, `modes-page-${round + 1}.cpuprofile`), JSON.stringify(cpu));
    }
    if (shots && round === 0 && modesPage) await page.screenshot({ path: join(shots, 'run-1m-modes.png') });
    results.push({ firstChart, firstRead: first.read, loaded, held, aggregate, repaint, rolloutMs, range: ranges.at(-1), modesPage });
    console.error('bench-run: round', round + 1, inspect(results.at(-1), { depth: 4, breakLength: Infinity }));
    await context.close();
  }
} finally {
  await browser.close();
  server.close();
  rmSync(dir, { recursive: true, force: true });
}

const best = (k) => Math.min(...results.map((r) => r[k]));
const worst = (k) => Math.max(...results.map((r) => r[k]));
const mb = (b) => `${(b / 1024 / 1024).toFixed(1)} MB`;
const row = (k, v, t = '') => console.log(`${k.padEnd(38)} ${String(v).padStart(14)}  ${t}`);
console.log('');
row('machine', `${cpus().length} cores`, `${cpus()[0]?.model ?? ''}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB`);
row('run index', `${ROWS.toLocaleString('en-US')} rows`, `${STEPS} steps, ${shards.length} shards, ${mb(indexBytes)} of Parquet`);
row(
  'first chart drawn, ms',
  results.map((r) => r.firstChart.toFixed(0)).join(' / '),
  `target <= ${TARGET.firstChartMs} every round (rollouts read then: ${results.map((r) => r.firstRead).join(' / ')})`,
);
row('every shard read, ms', results.map((r) => r.loaded.toFixed(0)).join(' / '));
row('held after load (JS heap + buffers)', results.map((r) => mb(r.held)).join(' / '), `target <= ${TARGET.heldMb} MB`);
row('re-aggregation after a filter, ms', results.map((r) => r.aggregate?.toFixed(1)).join(' / '), `target <= ${TARGET.aggregateMs}`);
row('  … until the charts repainted, ms', results.map((r) => r.repaint.toFixed(0)).join(' / '));
row(
  'one rollout opened by range, ms',
  results.map((r) => r.rolloutMs.toFixed(0)).join(' / '),
  `target <= ${TARGET.rolloutMs} every round (${results[0]?.range})`,
);
const pageModes = results.map((r) => r.modesPage).filter(Boolean);
row(
  'failure modes of the rows (node), ms',
  modes ? modesMs.toFixed(0) : 'n/a',
  modes
    ? `target <= ${TARGET.modesVsIndex} x indexing as many (${indexAllMs.toFixed(0)} ms): ${(modesMs / indexAllMs).toFixed(3)} x; ` +
        `${modesResult?.modes.length} modes, ${modesResult?.templates} templates`
    : '',
);
row(
  'failure modes page drawn, ms',
  pageModes.length ? pageModes.map((m) => m.ms.toFixed(0)).join(' / ') : 'n/a',
  `target <= ${TARGET.modesPageMs}; longest task ${pageModes.map((m) => m.longest.toFixed(0)).join(' / ') || 'n/a'} ms (target < ${TARGET.longTaskMs})`,
);
const modesOk =
  (!modes || modesMs / indexAllMs <= TARGET.modesVsIndex) &&
  // A round whose page or chart never drew is a miss, not a round left out.
  pageModes.length === results.length &&
  pageModes.every((m) => m.ms <= TARGET.modesPageMs && m.longest < TARGET.longTaskMs);
const ok =
  modesOk &&
  best('held') / 2 ** 20 <= TARGET.heldMb &&
  // Issue 25: the first chart and a rollout by range meet theirs in every round, not in the best one.
  worst('firstChart') <= TARGET.firstChartMs &&
  best('aggregate') <= TARGET.aggregateMs &&
  worst('rolloutMs') <= TARGET.rolloutMs;
console.log(
  `\nbench-run: rows ${ROWS}, held ${(best('held') / 2 ** 20).toFixed(1)} MB, first chart ${best('firstChart').toFixed(0)} ms, ` +
    `loaded ${best('loaded').toFixed(0)} ms, re-aggregate ${best('aggregate').toFixed(1)} ms, rollout ${best('rolloutMs').toFixed(0)} ms` +
    `${modes ? `, modes ${modesMs.toFixed(0)} ms` : ''}` +
    // The longest task of every round: issue 25 asks for none over 50 ms in any round, not in the best one.
    `${pageModes.length ? `, modes page ${Math.min(...pageModes.map((m) => m.ms)).toFixed(0)} ms (longest task ${Math.max(...pageModes.map((m) => m.longest)).toFixed(0)} ms)` : ''}` +
    `${ok ? '' : ' (a target missed)'}`,
);
