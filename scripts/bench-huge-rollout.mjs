// `npm run bench:huge-rollout`: one rollout of 10,000 and one of 1,000,000 steps (issue 18), each with a
// finding per step, served by `trajscope view` and opened in headless Chromium through the real app.
// Measures the longest main-thread task while selecting it in the run list (detail pane), opening its
// Steps view, its Four roles (swimlane), its Grader audit and its Raw JSON, and comparing it with a
// one-step rollout. Target: no long task over 50 ms. After each phase, the page's live JS heap (main
// thread, after a forced full GC through CDP) is printed too.
// A phase ends when its view shows content (the first step's row, the first event, the far step selected),
// not when its tab is selected: a view built in slices is measured until it is built.
//   BENCH_STEPS=10000,1000000 (default) picks the sizes; BENCH_PHASES=select,steps,jump,roles,audit,raw,compare (default) the steps;
//   BENCH_PROFILE=DIR writes a CPU profile of each phase there (open in Chrome DevTools) and prints its heaviest functions;
//   BENCH_SCREENSHOTS=DIR a screenshot of the page after each phase (<steps>-<phase>.png);
//   BENCH_TRACE=DIR a Chromium trace of each phase there (<steps>-<phase>.json, open in DevTools' Performance
//   panel) and, for each task over 50 ms, what took its time (garbage collection, a script, layout).
import { createWriteStream, mkdtempSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH, chromiumMissing, INSTALL_HINT } from './chromium.mjs';
import { startView } from './view-server.mjs';

const SIZES = (process.env.BENCH_STEPS ?? '10000,1000000').split(',').map(Number);
const PHASES = new Set((process.env.BENCH_PHASES ?? 'select,steps,jump,roles,audit,raw,compare').split(','));
const PROFILE = process.env.BENCH_PROFILE;
const SCREENSHOTS = process.env.BENCH_SCREENSHOTS;
const TRACE = process.env.BENCH_TRACE;
const TRACE_CATEGORIES = ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'v8', 'v8.execute', 'disabled-by-default-v8.gc'];

/** The main thread's tasks over 50 ms in a trace, each with the events that took most of it. */
function longTraceTasks(trace) {
  const events = trace.traceEvents ?? trace;
  const main = events.find((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain');
  const mine = events.filter((e) => main && e.pid === main.pid && e.tid === main.tid && e.ph === 'X');
  const tasks = mine.filter((e) => e.name === 'RunTask' && e.dur > TARGET_LONG_TASK_MS * 1000);
  return tasks.map((t) => {
    const inner = mine.filter((e) => e !== t && e.ts >= t.ts && e.ts + e.dur <= t.ts + t.dur && e.dur > 5000);
    const top = inner.sort((a, b) => b.dur - a.dur).slice(0, 6);
    return {
      ms: t.dur / 1000,
      parts: top.map((e) => `${e.name}${e.args?.data?.functionName ? ` ${e.args.data.functionName}` : ''} ${(e.dur / 1000).toFixed(0)} ms`),
    };
  });
}

/** The functions with the most self time in a CPU profile, heaviest first. */
function heaviest(profile, top = 8) {
  const self = new Map();
  const dt = profile.timeDeltas;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  profile.samples.forEach((id, i) => {
    const f = byId.get(id).callFrame;
    const name = `${f.functionName || '(anonymous)'} ${f.url.split('/').pop()}:${f.lineNumber + 1}`;
    self.set(name, (self.get(name) ?? 0) + (dt[i] ?? 0) / 1000);
  });
  return [...self].sort((a, b) => b[1] - a[1]).slice(0, top);
}
const TARGET_LONG_TASK_MS = 50;
if (chromiumMissing()) {
  console.error(INSTALL_HINT);
  process.exit(2);
}

const META = {
  tokenizer: { name: 'synthetic', version: '1' },
  chat_template: { name: 'synthetic', version: '1' },
  grader: { name: 'synthetic', version: '1' },
  sampling: { temperature: 1 },
};
const small = (id) => ({
  task_id: 't',
  rollout_id: id,
  attempt_id: 'a-1',
  policy_version: 'v',
  environment_version: 'e',
  ...META,
  segments: [{ input_ids: [1, 2], generated_ids: [3], old_logprobs: [-0.1], tool_call_id: 'c-1' }],
  steps: [{ tool_call_id: 'c-1', tool: 'read_file', args: { path: 'a.py' }, observation: { status: 'ok', text: 'x' } }],
  termination: 'finished',
  reward: 1,
});

/** A rollout of `n` steps, none with a generation behind it: a finding per step, as the probe's file had. */
async function write(file, n) {
  const out = createWriteStream(file);
  const put = (s) => (out.write(s) ? Promise.resolve() : new Promise((r) => out.once('drain', r)));
  await put(`${JSON.stringify(small('small-1'))}\n`);
  const head = JSON.stringify({ ...small('huge'), steps: undefined }).replace(/}$/, ',"steps":[');
  await put(head);
  let chunk = '';
  for (let i = 0; i < n; i++) {
    chunk += `${i ? ',' : ''}{"tool_call_id":"s-${i}","tool":"run_tests","args":{"k":${i % 7}},"observation":{"status":"ok","text":"passed ${i}"}}`;
    if (chunk.length > 1 << 20) {
      await put(chunk);
      chunk = '';
    }
  }
  await put(`${chunk}]}\n${JSON.stringify(small('small-2'))}\n`);
  await new Promise((r) => out.end(r));
}

const dir = mkdtempSync(join(tmpdir(), 'trajscope-huge-'));
const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
const rows = [];
try {
  for (const n of SIZES) {
    const file = join(dir, `huge-${n}.jsonl`);
    await write(file, n);
    const { base, server } = await startView([file]);
    const context = await browser.newContext();
    const page = await context.newPage();
    page.on('pageerror', (e) => console.error('bench: page error:', e.message));
    const t0 = Date.now();
    await page.goto(base);
    await page.getByRole('region', { name: 'Summary' }).getByText('3 rollouts').waitFor({ timeout: 300_000 });
    // The rows show before the load's last snapshot; selecting meanwhile would measure that snapshot too.
    await page.waitForFunction(() => performance.getEntriesByName('trajscope:loaded').length > 0, null, { timeout: 300_000 });
    const loadMs = Date.now() - t0;
    const heapCdp = await context.newCDPSession(page);
    await heapCdp.send('HeapProfiler.enable');
    await page.evaluate(() => {
      window.__longTasks = [];
      new PerformanceObserver((list) => {
        for (const e of list.getEntries()) window.__longTasks.push({ at: e.startTime, ms: e.duration });
      }).observe({ type: 'longtask' });
    });
    /** Runs a step, waits until `ready` shows and two frames are painted; the longest task meanwhile. */
    const measure = async (phase, label, action, ready) => {
      if (!PHASES.has(phase)) return;
      const from = await page.evaluate(() => performance.now());
      const cdp = PROFILE ? await context.newCDPSession(page) : null;
      if (cdp) {
        await cdp.send('Profiler.enable');
        // 100 µs, not the default 1 ms: a 60 ms task is then ~600 samples, enough to name its parts.
        await cdp.send('Profiler.setSamplingInterval', { interval: 100 });
        await cdp.send('Profiler.start');
      }
      if (TRACE) await browser.startTracing(page, { categories: TRACE_CATEGORIES });
      const started = Date.now();
      await action();
      await ready.waitFor({ timeout: 300_000 });
      await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => r()))));
      const ms = Date.now() - started;
      if (cdp) {
        const { profile } = await cdp.send('Profiler.stop');
        writeFileSync(join(PROFILE, `${n}-${phase}.cpuprofile`), JSON.stringify(profile));
        console.log(`${n} ${phase}: heaviest self time`);
        for (const [name, t] of heaviest(profile)) console.log(`  ${t.toFixed(0).padStart(7)} ms  ${name}`);
      }
      const to = await page.evaluate(() => performance.now());
      if (TRACE) {
        const buffer = await browser.stopTracing();
        writeFileSync(join(TRACE, `${n}-${phase}.json`), buffer);
        for (const t of longTraceTasks(JSON.parse(buffer.toString())))
          console.log(`${n} ${phase}: task ${t.ms.toFixed(0)} ms: ${t.parts.join(', ')}`);
      }
      if (SCREENSHOTS) await page.screenshot({ path: join(SCREENSHOTS, `${n}-${phase}.png`) });
      const tasks = await page.evaluate(([a, b]) => window.__longTasks.filter((t) => t.at >= a && t.at <= b).map((t) => t.ms), [from, to]);
      // Outside the measured window: the forced collection is a long task of its own.
      await heapCdp.send('HeapProfiler.collectGarbage');
      const { usedSize } = await heapCdp.send('Runtime.getHeapUsage');
      rows.push({ n, label, ms, longest: tasks.length ? Math.max(...tasks) : 0, count: tasks.length, heap: usedSize });
    };
    const nav = (query) => () =>
      page.evaluate((q) => {
        history.pushState(null, '', `/?${q}`);
        window.dispatchEvent(new Event('trajscope:navigate'));
      }, query);
    await measure(
      'select',
      'select in the run list (detail pane)',
      () => page.getByRole('grid', { name: 'Rollouts' }).getByRole('row').filter({ hasText: 'huge' }).first().click(),
      page.getByRole('complementary', { name: 'Rollout details' }).getByRole('heading', { name: 'huge' }),
    );
    await measure(
      'steps',
      'open its Steps view',
      nav('rollout=huge%23a-1&view=rollout&tab=steps'),
      page.getByRole('list', { name: 'Steps' }).getByRole('listitem', { name: 'Step 1', exact: true }),
    );
    const far = Math.round(n * 0.9) + 7;
    await measure(
      'jump',
      `go to step ${far.toLocaleString('en-US')} by URL`,
      nav(`rollout=huge%23a-1&view=rollout&tab=steps&step=${far}`),
      page.getByRole('listitem', { name: `Step ${far}`, exact: true }).and(page.locator('[aria-current="true"]')),
    );
    await measure(
      'roles',
      'open its Four roles view',
      nav('rollout=huge%23a-1&view=rollout&tab=roles'),
      page.getByRole('list', { name: 'Events in order' }).getByRole('listitem').first(),
    );
    await measure(
      'audit',
      'open its Grader audit',
      nav('rollout=huge%23a-1&view=rollout&tab=audit'),
      // Its content, not the tab: a long rollout's pass is read in slices after the tab shows.
      page.getByRole('heading', { name: 'Process scores' }),
    );
    await measure(
      'raw',
      'open its Raw JSON',
      nav('rollout=huge%23a-1&view=rollout&tab=raw'),
      page.getByRole('document', { name: 'Raw JSON' }).getByText('"rollout_id"', { exact: true }),
    );
    await measure(
      'compare',
      'compare it with a one-step rollout',
      nav('view=compare&a=huge%23a-1&b=small-1%23a-1'),
      page.getByRole('status').filter({ hasText: /^First divergence at row/ }),
    );
    rows.push({ n, label: `load (${(statSync(file).size / 2 ** 20).toFixed(0)} MB)`, ms: loadMs, longest: null, count: null });
    await context.close();
    server.kill('SIGTERM');
  }
} finally {
  await browser.close();
}
let worst = 0;
for (const r of rows) {
  if (r.longest !== null) worst = Math.max(worst, r.longest);
  console.log(
    `${r.n.toLocaleString('en-US').padStart(9)} steps  ${r.label.padEnd(40)} ${String(r.ms).padStart(7)} ms  ${r.longest === null ? '' : `longest task ${r.longest.toFixed(0).padStart(4)} ms (${r.count} over 50 ms)  heap ${(r.heap / 2 ** 20).toFixed(0).padStart(5)} MB`}`,
  );
}
console.log(
  `bench:huge-rollout: longest task ${worst.toFixed(0)} ms; target none over ${TARGET_LONG_TASK_MS} ms — ${worst <= TARGET_LONG_TASK_MS ? 'met' : 'NOT met'}`,
);
