import { gzipSync } from 'node:zlib';
import { expect, test } from '@playwright/test';
import { expectLoaded, openWithButton, problemsPanel, rolloutRows, screenshot } from './support/app';
import { MIXED } from './support/fixtures';

test('a gzip-compressed file opened with the button is decompressed and listed', async ({ page }, testInfo) => {
  await page.goto('/');
  await openWithButton(page, { name: 'mixed.jsonl.gz', mimeType: 'application/gzip', buffer: gzipSync(MIXED.text) });

  await expectLoaded(page, MIXED.goodIds.length);
  await expect(page.getByRole('region', { name: 'Summary' })).toContainText('gzip');
  await expect(rolloutRows(page)).toHaveCount(MIXED.goodIds.length);
  await expect(problemsPanel(page).getByRole('listitem')).toHaveCount(MIXED.badLines.length);
  await screenshot(page, testInfo, 'open-gzip');
});
