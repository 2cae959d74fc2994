import { expect, type Page, test } from '@playwright/test';
import { expectLoaded, rolloutRows, screenshot } from './support/app';
import { cleanFile } from './support/fixtures';

/** A DataTransfer holding in-memory files, built in the page as a real drag would carry it. */
function dataTransfer(page: Page, files: Array<{ name: string; text: string }>) {
  return page.evaluateHandle((list) => {
    const dt = new DataTransfer();
    for (const f of list) dt.items.add(new File([f.text], f.name, { type: 'application/x-ndjson' }));
    return dt;
  }, files);
}

/** The embedded demo on screen: the page's drop listener is attached (an effect after the first render). */
async function openReady(page: Page) {
  await page.goto('/');
  await expectLoaded(page, 44);
}

test('dropping a file anywhere on the page opens it, with an overlay while dragging', async ({ page }, testInfo) => {
  await openReady(page);
  const file = cleanFile('dropped.jsonl', 'd', 4);
  const dt = await dataTransfer(page, [file]);

  await page.getByRole('main').dispatchEvent('dragenter', { dataTransfer: dt });
  await expect(page.getByText('Drop to open')).toBeVisible();
  await screenshot(page, testInfo, 'drag-overlay');

  await page.getByRole('main').dispatchEvent('drop', { dataTransfer: dt });
  await expect(page.getByText('Drop to open')).toBeHidden();
  await expectLoaded(page, 4);
  await expect(rolloutRows(page)).toHaveCount(4);
  await expect(page).toHaveURL(/[?&]src=local:dropped\.jsonl/);
  await screenshot(page, testInfo, 'drag-and-drop');
});

test('dropped files that are not JSON Lines are skipped with a notice', async ({ page }, testInfo) => {
  await openReady(page);
  const dt = await dataTransfer(page, [cleanFile('good.jsonl', 'g', 2), { name: 'notes.txt', text: 'hello' }]);

  await page.getByRole('main').dispatchEvent('dragenter', { dataTransfer: dt });
  await page.getByRole('main').dispatchEvent('drop', { dataTransfer: dt });
  await expectLoaded(page, 2);
  await expect(page.getByRole('status').filter({ hasText: 'Skipped notes.txt' })).toBeVisible();
  await screenshot(page, testInfo, 'drop-skipped');
});
