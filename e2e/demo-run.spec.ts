import { readdirSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { expectLoaded, rolloutRows, screenshot } from './support/app';

const RUN_FILES = readdirSync(new URL('../public/demo/run/', import.meta.url)).filter((f) => f.endsWith('.jsonl.gz'));
const PER_STEP = 16;

test('the start page offers the demo training run beside the single-file demo, and opens all its step files', async ({
  page,
}, testInfo) => {
  await page.goto('/');
  const banner = page.getByRole('banner');
  await expect(banner).toContainText('Demo');
  await expectLoaded(page, 42);
  await screenshot(page, testInfo, 'demo-run-offer');

  await banner.getByRole('button', { name: `Open the demo training run (${RUN_FILES.length} steps)` }).click();
  await expectLoaded(page, RUN_FILES.length * PER_STEP, 60_000);
  await expect(banner).toContainText('Demo run');
  await expect(banner).toContainText(`${RUN_FILES.length} training steps`);
  const srcs = new URL(page.url()).searchParams.getAll('src');
  expect(srcs.map((s) => s.split('/').pop())).toEqual(RUN_FILES);
  await expect(rolloutRows(page).first()).toContainText('r-s0000-g1-01');
  await screenshot(page, testInfo, 'demo-run-open');

  await banner.getByRole('button', { name: 'Back to the single-file demo' }).click();
  await expect(banner).not.toContainText('Demo run');
  expect(new URL(page.url()).searchParams.getAll('src')).toEqual([]);
});
