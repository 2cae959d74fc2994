import { readdirSync, readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { expect, test } from '@playwright/test';
import { screenshot } from './support/app';

/** The committed demo run's rollouts that failed, counted from the files: out of the signal, or rewarded below 1. */
const DIR = new URL('../public/demo/run/', import.meta.url);
const records = readdirSync(DIR)
  .filter((f) => f.endsWith('.jsonl.gz'))
  .flatMap((f) =>
    gunzipSync(readFileSync(new URL(f, DIR)))
      .toString('utf8')
      .trimEnd()
      .split('\n'),
  )
  .map((l) => JSON.parse(l) as { termination: string; reward?: number | null; grading?: { verdict?: string }; steps?: unknown[] });
const IN_SIGNAL = new Set(['finished', 'budget_exhausted', 'invalid_call', 'context_overflow']);
const failed = records.filter((r) => !IN_SIGNAL.has(r.termination) || (r.reward ?? 0) < 1);
const wrongEdit = records.filter((r) => r.termination === 'finished' && r.grading?.verdict === 'fail' && (r.reward ?? 0) < 1);

test('the Failure modes page ranks the demo run’s failures, charts them over training, and leads to each mode’s rollouts', async ({
  page,
}, testInfo) => {
  test.setTimeout(90_000);
  await page.setViewportSize({ width: 1440, height: 1000 });
  await page.goto('/?run=/demo/run-index/');
  await page.getByRole('navigation', { name: 'Pages' }).getByRole('button', { name: 'Failure modes' }).click();
  await expect(page).toHaveURL(/view=modes/);
  const head = page.locator('.modes__head');
  await expect(head).toContainText(`${failed.length} of ${records.length} rollouts failed or were excluded`, { timeout: 60_000 });
  const chart = page.getByRole('figure', { name: /failure mode by training step/ });
  await expect(chart.locator('.recharts-line-curve').first()).toBeVisible();
  // The chart draws in parts (its axes, then the grid, then one line per render): in the end every mode of
  // its legend has its line.
  const legend = await chart.locator('.modes-chart__legend li').count();
  expect(legend).toBeGreaterThan(1);
  await expect(chart.locator('.recharts-line-curve')).toHaveCount(legend);
  // The grid's lines are placed from the y axis's ticks without measuring them: each at its tick's height
  // (both in the ticks' order).
  const heights = (selector: string) => chart.locator(selector).evaluateAll((lines) => lines.map((l) => Number(l.getAttribute('y1'))));
  const grid = await heights('.recharts-cartesian-grid-horizontal line');
  const ticks = await heights('.recharts-yAxis .recharts-cartesian-axis-tick-line');
  expect(grid.length).toBeGreaterThan(2);
  expect(grid).toHaveLength(ticks.length);
  for (const [i, y] of grid.entries()) expect(Math.abs(y - (ticks[i] ?? Number.NaN))).toBeLessThan(0.5);
  const first = page.locator('.mode-row').first();
  await expect(first).toContainText('finished (fail) · grader: <n> of <n> private tests failed');
  // Every finished rollout the grader failed with its dev tests green is in the first mode; the count is not typed in.
  const count = Number((await first.locator('.mode-row__size strong').textContent())?.replace(/,/g, ''));
  expect(count).toBeGreaterThan(0);
  expect(count).toBeLessThanOrEqual(wrongEdit.length);
  await screenshot(page, testInfo, 'failure-modes-run-wide');

  await first.getByRole('button', { name: 'Show its rollouts' }).click();
  await expect(page).toHaveURL(/view=search/);
  await expect(page.getByRole('status')).toContainText(`${count} rollouts match`, { timeout: 30_000 });

  await page.goBack();
  await expect(page).toHaveURL(/view=modes/);
  await page.locator('.mode-row').first().locator('.mode-row__exemplar').first().click();
  await expect(page).toHaveURL(/view=rollout/);

  await page.setViewportSize({ width: 700, height: 1000 });
  await page.goto('/?run=/demo/run-index/&view=modes');
  await expect(page.locator('.mode-row').first()).toBeVisible({ timeout: 60_000 });
  await screenshot(page, testInfo, 'failure-modes-run-narrow');
});

test('a single file has its failure modes too, with no chart when it has no training steps', async ({ page }, testInfo) => {
  await page.goto('/?view=modes');
  await expect(page.locator('.modes__head')).toContainText('of 44 rollouts failed or were excluded', { timeout: 30_000 });
  await expect(page.locator('.mode-row')).not.toHaveCount(0);
  await expect(page.locator('.modes-chart')).toHaveCount(0);
  await screenshot(page, testInfo, 'failure-modes-file');
});
