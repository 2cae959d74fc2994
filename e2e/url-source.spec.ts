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

test('a load after a failed one finds its parse worker already started', async ({ page }) => {
  // Issue 25: the worker that failed is ended and the next one started at once, so the next load does
  // not wait for a new worker and its lines workers to load their scripts.
  await page.addInitScript(() => {
    const created: string[] = [];
    (window as { __workers?: string[] }).__workers = created;
    const Native = window.Worker;
    window.Worker = class extends Native {
      constructor(url: string | URL, options?: WorkerOptions) {
        super(url, options);
        created.push(String(url));
      }
    };
  });
  const parseWorkers = () =>
    page.evaluate(() => ((window as { __workers?: string[] }).__workers ?? []).filter((u) => u.includes('parse.worker')).length);
  await page.route(
    (url) => url.pathname === '/fixtures/mixed.jsonl',
    (route) => route.fulfill({ status: 200, contentType: 'application/x-ndjson', body: MIXED.text }),
  );
  await page.goto('/?src=/no-such-file.jsonl');
  await expect(page.getByRole('alert')).toContainText('/no-such-file.jsonl was not found');
  // The one that failed, and the next one, started when it ended.
  await expect.poll(parseWorkers).toBe(2);
  await page.evaluate(() => {
    history.pushState(null, '', '/?src=/fixtures/mixed.jsonl');
    window.dispatchEvent(new Event('trajscope:navigate'));
  });
  await expectLoaded(page, MIXED.goodIds.length);
  // The load took the one already started (no new worker for it); the only new one is the next spare.
  await expect.poll(parseWorkers).toBe(3);
});
