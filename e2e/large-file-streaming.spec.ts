import { mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { writeLargeJsonl } from '../scripts/make-large-jsonl.mjs';
import { expectLoaded, rolloutRows, screenshot } from './support/app';

/*
 * A 50 MB file goes through the parse worker, and the run list shows its first rollouts while the rest is
 * still being read. The page records, frame by frame, whether rows were on screen while the "Still
 * reading" strip was; a file shown only at the end would never satisfy that.
 */
test('a 50 MB file streams through the worker: first rows appear before the load completes', async ({ page }, testInfo) => {
  test.setTimeout(120_000);
  const path = join(mkdtempSync(join(tmpdir(), 'trajscope-50mb-')), 'big.jsonl');
  const { rollouts } = await writeLargeJsonl(path, 50, 5);
  expect(statSync(path).size).toBeGreaterThan(50 * 1024 * 1024);

  const workers: string[] = [];
  page.on('worker', (w) => workers.push(w.url()));
  await page.goto('/');
  await expectLoaded(page, 44);
  await page.evaluate(() => {
    const w = window as unknown as { __rowsWhileLoading: number };
    w.__rowsWhileLoading = 0;
    // A timer rather than requestAnimationFrame: it keeps sampling even while frames are skipped.
    setInterval(() => {
      const loading = document.querySelector('[aria-label="Still reading"]');
      const rows = document.querySelectorAll('tr[data-index]').length;
      if (loading && rows > 0) w.__rowsWhileLoading++;
    }, 10);
  });

  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('banner').getByRole('button', { name: 'Open files…' }).click();
  await (await chooser).setFiles(path);
  await expect(page.getByRole('status', { name: 'Still reading' })).toBeVisible();
  await screenshot(page, testInfo, 'large-file-streaming');
  await expectLoaded(page, rollouts, 90_000);
  await expect(page.getByRole('status', { name: 'Still reading' })).toHaveCount(0);

  const framesWithRowsWhileLoading = await page.evaluate(() => (window as unknown as { __rowsWhileLoading: number }).__rowsWhileLoading);
  expect(framesWithRowsWhileLoading).toBeGreaterThan(0);
  expect(workers.some((u) => u.includes('parse.worker'))).toBe(true);
  await expect(rolloutRows(page).first()).toContainText('r-0');
});
