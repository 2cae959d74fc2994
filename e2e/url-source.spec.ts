import { expect, test } from '@playwright/test';
import { expectLoaded, rolloutRows, screenshot } from './support/app';
import { MIXED } from './support/fixtures';

test('?src=<url> loads that URL', async ({ page }, testInfo) => {
  await page.route(
    (url) => url.pathname === '/fixtures/mixed.jsonl',
    (route) => route.fulfill({ status: 200, contentType: 'application/x-ndjson', body: MIXED.text }),
  );
  await page.goto('/?src=/fixtures/mixed.jsonl');

  await expectLoaded(page, MIXED.goodIds.length);
  await expect(rolloutRows(page)).toHaveCount(MIXED.goodIds.length);
  await expect(page.getByRole('banner')).toContainText('/fixtures/mixed.jsonl');
  await screenshot(page, testInfo, 'url-source');
});

test('a URL that is not there is reported by name, not as an empty list', async ({ page }, testInfo) => {
  // Served by the preview server itself, which may answer a missing path with the app's index.html.
  await page.goto('/?src=/no-such-file.jsonl');

  await expect(page.getByRole('heading', { name: 'Could not load the data' })).toBeVisible();
  await expect(page.getByRole('alert')).toContainText('/no-such-file.jsonl was not found');
  await screenshot(page, testInfo, 'url-missing');
});
