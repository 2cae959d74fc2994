import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, type Page, test } from '@playwright/test';
import { gunzipSync } from 'fflate';
import { rolloutRows, screenshot } from './support/app';
import { type StaticSite, serveStatic } from './support/staticSite';

const DEMO_RUN = fileURLToPath(new URL('../public/demo/run/', import.meta.url));
const FILES = 6;
const PER_FILE = 16;

/** Each training step's rollouts (id, file) as the files record them (the demo trainer runs one step behind, so step 0 has two files). */
function stepsOf(run: string): Map<number, { id: string; file: string }[]> {
  const steps = new Map<number, { id: string; file: string }[]>();
  for (let f = 0; f < FILES; f++) {
    const file = `step_${String(f).padStart(4, '0')}.jsonl`;
    for (const line of readFileSync(join(run, file), 'utf8').split('\n')) {
      if (line.trim() === '') continue;
      const r = JSON.parse(line) as { rollout_id: string; training_step: number };
      steps.set(r.training_step, [...(steps.get(r.training_step) ?? []), { id: r.rollout_id, file }]);
    }
  }
  return steps;
}

/**
 * A multi-file run of plain .jsonl files (the demo run's first steps, decompressed, so a rollout is read
 * by range), bundled by `trajscope bundle` into a static site.
 */
function bundleSite(): { site: string; run: string } {
  const dir = mkdtempSync(join(tmpdir(), 'trajscope-e2e-run-'));
  const run = join(dir, 'run');
  mkdirSync(run);
  for (let s = 0; s < FILES; s++) {
    const name = `step_${String(s).padStart(4, '0')}`;
    writeFileSync(join(run, `${name}.jsonl`), gunzipSync(readFileSync(join(DEMO_RUN, `${name}.jsonl.gz`))));
  }
  execFileSync(process.execPath, ['bin/trajscope.mjs', 'bundle', run, '--out', join(dir, 'site'), '--jobs', '1'], { stdio: 'pipe' });
  return { site: join(dir, 'site'), run };
}

let siteDir: string;
let steps: Map<number, { id: string; file: string }[]>;
test.beforeAll(() => {
  const made = bundleSite();
  siteDir = made.site;
  steps = stepsOf(made.run);
});

async function openRunPage(page: Page, site: StaticSite) {
  // The bundled page opens its run by itself: a bare visit.
  await page.goto(site.base);
  await expect(page).toHaveURL(/\?run=index\//);
  await expect(page.getByRole('region', { name: 'Run' })).toContainText(`${FILES * PER_FILE} rollouts over ${steps.size} training steps`, {
    timeout: 30_000,
  });
  await expect(page.getByRole('figure', { name: 'Reward' }).locator('.recharts-line-curve')).toBeVisible();
}

test('a bundled run on a plain static host: the run page, a click on a step opens its rollouts, a rollout is read by range', async ({
  page,
}, testInfo) => {
  test.setTimeout(120_000);
  const site = await serveStatic(siteDir, { ranges: true });
  try {
    await openRunPage(page, site);
    for (const title of [
      'In the policy signal',
      'Termination',
      'Zero-variance groups',
      'Response length',
      'Truncated',
      'Findings',
      'Regressions',
    ]) {
      await expect(page.getByRole('figure', { name: title })).toBeVisible();
    }
    // A run of a few steps: a stacked bar per step (past 60 points the chart is a stepped area, RunPage.tsx).
    await expect(page.getByRole('figure', { name: 'Termination' }).locator('.recharts-bar-rectangle').first()).toBeVisible();
    await screenshot(page, testInfo, 'run-page-wide');

    // A click in the reward chart's plot area selects the step under the pointer.
    const plot = page.getByRole('figure', { name: 'Reward' }).locator('.recharts-surface');
    const box = await plot.boundingBox();
    if (!box) throw new Error('no reward chart');
    const tooltip = page.getByRole('figure', { name: 'Reward' }).locator('.recharts-tooltip-wrapper');
    await page.mouse.move(box.x + box.width * 0.62, box.y + box.height * 0.4);
    await expect(tooltip).toContainText('training step');
    const hovered = Number(/training steps? (\d+)/.exec((await tooltip.textContent()) ?? '')?.[1]);
    await page.mouse.down();
    await page.mouse.up();
    await expect(page).toHaveURL(/[?&]steps=\d+(&|$)/);
    const step = Number(new URL(page.url()).searchParams.get('steps'));
    expect(step).toBeGreaterThan(0);
    // The click selects the step the tooltip named, and the tooltip steps aside (it stayed, issue 31).
    expect(step).toBe(hovered);
    await expect(tooltip).toBeHidden();
    // A click with no hover before it selects the step under it, not the one hovered last (issue 31).
    await page.mouse.click(box.x + box.width * 0.25, box.y + box.height * 0.4);
    await expect(page).not.toHaveURL(new RegExp(`[?&]steps=${step}(&|$)`));
    const other = Number(new URL(page.url()).searchParams.get('steps'));
    expect(other).toBeLessThan(step);
    await page.mouse.click(box.x + box.width * 0.62, box.y + box.height * 0.4);
    await expect(page).toHaveURL(new RegExp(`[?&]steps=${step}(&|$)`));
    const inStep = steps.get(step) ?? [];
    expect(inStep.length).toBeGreaterThan(0);

    // Compare it with step 0: means and deltas side by side.
    await page.getByLabel('Compare with').fill('0');
    await page.getByLabel('Compare with').press('Enter');
    const compare = page.getByRole('table', { name: 'Compare step ranges' });
    await expect(compare).toContainText('steps 0');
    await expect(compare).toContainText(`steps ${step}`);
    const n0 = steps.get(0)?.length ?? 0;
    await expect(compare.getByRole('row', { name: /Rollouts/ }).getByRole('cell')).toHaveText([
      `${n0}`,
      `${inStep.length}`,
      `${inStep.length - n0}`,
    ]);
    await screenshot(page, testInfo, 'run-page-compare');

    await page.getByRole('button', { name: `Open rollouts of step ${step}` }).click();
    await expect(rolloutRows(page)).toHaveCount(inStep.length);
    const texts = await rolloutRows(page).allTextContents();
    inStep.forEach(({ id }, i) => {
      expect(texts[i]).toContain(id);
    });

    // The step's groups, and a row's detail pane (counts from the index, codes without their messages yet).
    await rolloutRows(page).nth(3).click();
    const detail = page.getByRole('complementary', { name: 'Rollout details' });
    await expect(detail).toContainText(inStep[3]?.id ?? '');
    await screenshot(page, testInfo, 'run-list-step');
    await page.getByRole('banner').getByRole('button', { name: 'Groups' }).click();
    await expect(page.getByRole('region', { name: 'Summary across groups' })).toBeVisible();
    await screenshot(page, testInfo, 'run-groups-step');
    await page.goBack();
    await expect(rolloutRows(page)).toHaveCount(inStep.length);

    // Opening a rollout reads its line, and only its line, by an HTTP range request.
    const before = site.log.length;
    await rolloutRows(page).nth(3).dblclick();
    await expect(page).toHaveURL(/view=rollout/);
    await expect(page.getByRole('tab', { name: 'Steps' })).toBeVisible();
    const key = new URL(page.url()).searchParams.get('rollout') ?? '';
    await expect(page.locator('main')).toContainText(key.split('#')[0] ?? '');
    const reads = site.log.slice(before).filter((e) => e.path.startsWith('/run/'));
    expect(reads).toHaveLength(1);
    expect(reads[0]?.path).toBe(`/run/${inStep[3]?.file}`);
    expect(reads[0]?.range).toMatch(/^bytes=\d+-\d+$/);
    expect(reads[0]?.status).toBe(206);
    // A run's page asks for nothing but the run: not `trajscope view`'s file list, not the embedded demo
    // (the rollout page asked for the list as it opened, on a host that has none).
    expect(site.log.map((e) => e.path).filter((p) => p.startsWith('/api/') || p.includes('/demo/'))).toEqual([]);
    await expect(page.getByRole('alert')).toHaveCount(0);
    await screenshot(page, testInfo, 'run-rollout');

    // Back on the run page, the selection is still there.
    await page.getByRole('banner').getByRole('button', { name: 'Run' }).click();
    await expect(page.getByRole('button', { name: `Open rollouts of step ${step}` })).toBeVisible();
    await page.setViewportSize({ width: 420, height: 900 });
    await screenshot(page, testInfo, 'run-page-narrow');
  } finally {
    await site.close();
  }
});

test('on a host that ignores ranges (as Python’s http.server does) the page says so once, and still opens the rollout', async ({
  page,
}, testInfo) => {
  test.setTimeout(120_000);
  // A copy of the site of its own: this run grows, the other tests' stays as bundled.
  const own = mkdtempSync(join(tmpdir(), 'trajscope-e2e-grow-'));
  cpSync(siteDir, own, { recursive: true });
  const site = await serveStatic(own, { ranges: false });
  try {
    await openRunPage(page, site);
    // The run grows: a trainer writes the next step's file and the index is refreshed; the page follows.
    const next = `step_${String(FILES).padStart(4, '0')}`;
    writeFileSync(join(own, 'run', `${next}.jsonl`), gunzipSync(readFileSync(join(DEMO_RUN, `${next}.jsonl.gz`))));
    execFileSync(process.execPath, ['bin/trajscope.mjs', 'index', join(own, 'run'), '--out', join(own, 'index'), '--jobs', '1'], {
      stdio: 'pipe',
    });
    await expect(page.getByRole('region', { name: 'Run' })).toContainText(
      `${(FILES + 1) * PER_FILE} rollouts over ${steps.size + 1} training steps`,
      {
        timeout: 30_000,
      },
    );
    await page.goto(`${site.base}?run=index/&view=list&steps=2`);
    await expect(rolloutRows(page)).toHaveCount(steps.get(2)?.length ?? -1);
    await rolloutRows(page).first().dblclick();
    await expect(page.getByRole('alert')).toContainText('This host ignores HTTP range requests');
    await expect(page.getByRole('tab', { name: 'Steps' })).toBeVisible();
    const key = new URL(page.url()).searchParams.get('rollout') ?? '';
    await expect(page.locator('main')).toContainText(key.split('#')[0] ?? '');
    await screenshot(page, testInfo, 'run-no-ranges');
  } finally {
    await site.close();
  }
});

test('a search over a run reads its files, and a hit opens that rollout by range', async ({ page }, testInfo) => {
  test.setTimeout(120_000);
  // The rollouts that called edit, as the files record them.
  const run = join(siteDir, 'run');
  let edits = 0;
  for (let f = 0; f < FILES; f++)
    for (const line of readFileSync(join(run, `step_${String(f).padStart(4, '0')}.jsonl`), 'utf8').split('\n'))
      if (line.trim() !== '' && (JSON.parse(line) as { steps?: { tool: string }[] }).steps?.some((s) => s.tool === 'edit')) edits++;
  expect(edits).toBeGreaterThan(0);
  const site = await serveStatic(siteDir, { ranges: true });
  try {
    await openRunPage(page, site);
    const box = page.getByRole('searchbox', { name: 'Search rollouts' });
    await box.fill('tool:edit');
    await box.press('Enter');
    await expect(page.getByRole('status')).toContainText(`${edits} rollouts match`, { timeout: 30_000 });
    const results = page.getByRole('list', { name: 'Matching rollouts' });
    await expect(results.getByRole('listitem').first()).toBeVisible();
    await screenshot(page, testInfo, 'run-search');
    await results.getByRole('listitem').first().getByRole('button').first().click();
    await expect(page.getByRole('tab', { name: 'Steps', selected: true })).toBeVisible();
    await expect(page.getByRole('region', { name: 'Rollout steps' })).toContainText('edit');
  } finally {
    await site.close();
  }
});
