import { readFileSync } from 'node:fs';
import { expect, type Page, test } from '@playwright/test';
import { screenshot } from './support/app';
import { review, reviewProgress } from './support/reviews';

/*
 * Two tabs of one browser on the same file (issue 18): a verdict given in one shows in the other, the
 * other's export carries it, and "Clear reviews…" deletes exactly the reviews it announced.
 */

const AUDIT = '/?rollout=r-article%23a-1&view=rollout&tab=audit';

async function exported(page: Page): Promise<string[][]> {
  const downloading = page.waitForEvent('download');
  await review(page).getByRole('button', { name: 'Export reviews (JSONL)' }).click();
  const text = readFileSync((await (await downloading).path()) ?? '', 'utf8');
  return text
    .trimEnd()
    .split('\n')
    .map((l) => JSON.parse(l))
    .map((l) => [l.rollout_id, l.verdict]);
}

test('reviews stay in step across two tabs; clear deletes what it announced', async ({ context }, testInfo) => {
  const a = await context.newPage();
  const b = await context.newPage();
  await a.goto(AUDIT);
  await b.goto(AUDIT);
  // Two pages load at once on a shared machine: wait longer for each to be ready.
  for (const page of [a, b]) {
    await expect(reviewProgress(page)).toHaveText('0 of 44 reviewed', { timeout: 30_000 });
    await expect(review(page).getByRole('button', { name: /Agree/ })).toBeEnabled({ timeout: 30_000 });
  }

  // Tab A agrees; tab B, open all along, shows it without a reload.
  await a.keyboard.press('a');
  await expect(reviewProgress(a)).toHaveText('1 of 44 reviewed');
  await expect(reviewProgress(b)).toHaveText('1 of 44 reviewed', { timeout: 10_000 });
  await expect(review(b).getByRole('button', { name: /Agree/ })).toHaveAttribute('aria-pressed', 'true');

  // Tab B overwrites it: tab A exports B's verdict, not its own stale one.
  await b.keyboard.press('d');
  await expect(review(b).getByRole('button', { name: /Disagree/ })).toHaveAttribute('aria-pressed', 'true');
  await expect(review(a).getByRole('button', { name: /Disagree/ })).toHaveAttribute('aria-pressed', 'true', { timeout: 10_000 });
  expect(await exported(a)).toEqual([['r-article', 'disagree']]);

  // Tab B announces a clear of the 1 review it knows; meanwhile tab A adds a second one.
  await review(b).getByRole('button', { name: 'Clear reviews…' }).click();
  await expect(review(b).getByText('Delete 1 review of the loaded rollouts from this browser?')).toBeVisible();
  await a.keyboard.press('j');
  await expect(a.getByRole('heading', { name: /r-regression/ })).toBeVisible();
  await a.keyboard.press('u');
  await expect(reviewProgress(a)).toHaveText('2 of 44 reviewed');
  await screenshot(b, testInfo, 'review-two-tabs-confirm');
  await review(b).getByRole('button', { name: 'Delete', exact: true }).click();

  // Exactly the announced review went; the one added after the announcement stays, in both tabs.
  await expect(reviewProgress(b)).toHaveText('1 of 44 reviewed', { timeout: 10_000 });
  await expect(reviewProgress(a)).toHaveText('1 of 44 reviewed', { timeout: 10_000 });
  expect(await exported(a)).toEqual([['r-regression', 'unsure']]);
  await screenshot(a, testInfo, 'review-two-tabs-after-clear');
});
