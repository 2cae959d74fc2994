// Opens a run directory the way a user does, `trajscope view RUN_DIR`, in headless Chromium, and measures
// it once (the README's "20 GB run" table): how long until the run page shows every rollout and its reward
// chart, the page's live JS heap then (after a forced full collection), and how long one rollout takes to
// open from the run list (its bytes read by range). The view server builds or refreshes the run's index
// first (RUN_DIR/.trajscope/index): index it beforehand (`trajscope index RUN_DIR --out
// RUN_DIR/.trajscope/index`) to measure opening alone.
//   node scripts/measure-run-dir.mjs RUN_DIR [SCREENSHOT.png]
import { chromium } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH, chromiumMissing, INSTALL_HINT } from './chromium.mjs';
import { startView } from './view-server.mjs';

const [dir, shot] = process.argv.slice(2);
if (!dir) {
  console.error('usage: node scripts/measure-run-dir.mjs RUN_DIR [SCREENSHOT.png]');
  process.exit(2);
}
if (chromiumMissing()) {
  console.error(INSTALL_HINT);
  process.exit(2);
}

const started = performance.now();
const { base, server } = await startView([dir]);
const served = performance.now() - started;
const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
try {
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  const cdp = await page.context().newCDPSession(page);
  const t0 = performance.now();
  await page.goto(base);
  const run = page.getByRole('region', { name: 'Run' });
  await page.getByRole('figure', { name: 'Reward' }).locator('.recharts-line-curve').first().waitFor({ timeout: 600_000 });
  const firstChart = performance.now() - t0;
  // Every shard read: the run page names its rollouts once it has them all.
  await page.waitForFunction(() => !/(Reading|Building) the run index/.test(document.body.textContent ?? ''), null, {
    timeout: 600_000,
    polling: 100,
  });
  const loaded = performance.now() - t0;
  const summary = (await run.textContent())?.match(/[\d,]+ rollouts/)?.[0] ?? '?';
  await cdp.send('HeapProfiler.collectGarbage');
  const { usedSize } = await cdp.send('Runtime.getHeapUsage');
  if (shot) await page.screenshot({ path: shot });
  await page.getByRole('banner').getByRole('button', { name: 'Rollouts' }).click();
  const t1 = performance.now();
  const grid = page.getByRole('grid', { name: 'Rollouts' });
  await grid
    .getByRole('row')
    .filter({ has: page.getByRole('gridcell') })
    .first()
    .dblclick();
  await page.getByRole('region', { name: 'Rollout steps' }).getByRole('button').first().waitFor({ timeout: 60_000 });
  const rollout = performance.now() - t1;
  console.log(
    `measure-run-dir: ${dir}: served after ${(served / 1000).toFixed(1)} s; ${summary}; first chart ${(firstChart / 1000).toFixed(2)} s, ` +
      `every shard read ${(loaded / 1000).toFixed(2)} s, live heap ${(usedSize / 2 ** 20).toFixed(0)} MB; a rollout opened from the list in ${rollout.toFixed(0)} ms`,
  );
} catch (e) {
  if (shot) await (await browser.contexts()[0]?.pages()[0])?.screenshot({ path: shot.replace(/\.png$/, '-failed.png') });
  throw e;
} finally {
  await browser.close();
  server.kill('SIGTERM');
}
