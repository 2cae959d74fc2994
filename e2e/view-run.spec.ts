import type { ChildProcess } from 'node:child_process';
import { cpSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from '@playwright/test';
import { rolloutRows, screenshot } from './support/app';
import { startView } from './support/view';

const DEMO_RUN = fileURLToPath(new URL('../public/demo/run/', import.meta.url));

test('trajscope view of a run directory named relatively, as the README says: the run page, then a rollout', async ({ page }, testInfo) => {
  test.setTimeout(120_000);
  // A copy, so the index view writes beside the run stays out of the repository; named as a person types it.
  const dir = join(mkdtempSync(join(tmpdir(), 'trajscope-e2e-view-run-')), 'run');
  cpSync(DEMO_RUN, dir, { recursive: true });
  let server: ChildProcess | undefined;
  try {
    const base = await startView([relative(process.cwd(), dir)], (child) => {
      server = child;
    });
    await page.goto(base);
    await expect(page).toHaveURL(/\?run=\/run\//);
    await expect(page.getByRole('region', { name: 'Run' })).toContainText('384 rollouts', { timeout: 60_000 });
    await expect(page.getByRole('figure', { name: 'Reward' }).locator('.recharts-line-curve')).toBeVisible();
    await expect(page.getByRole('alert')).toHaveCount(0);
    await screenshot(page, testInfo, 'view-run-page');
    await page.getByRole('banner').getByRole('button', { name: 'Rollouts' }).click();
    await rolloutRows(page).first().dblclick();
    await expect(page.getByRole('tab', { name: 'Steps', selected: true })).toBeVisible();
    await expect(page.getByRole('region', { name: 'Rollout steps' })).toContainText('read_file');
  } finally {
    server?.kill('SIGTERM');
  }
});
