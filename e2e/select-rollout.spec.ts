import { expect, test } from '@playwright/test';
import { expectLoaded, rolloutGrid, rolloutRows, screenshot } from './support/app';
import { MIXED } from './support/fixtures';

test.beforeEach(async ({ page }) => {
  await page.route(
    (url) => url.pathname === '/fixtures/mixed.jsonl',
    (route) => route.fulfill({ status: 200, contentType: 'application/x-ndjson', body: MIXED.text }),
  );
});

test('clicking a row selects it in the URL and lists its findings', async ({ page }, testInfo) => {
  await page.goto('/?src=/fixtures/mixed.jsonl');
  await expectLoaded(page, MIXED.goodIds.length);

  await rolloutRows(page).filter({ hasText: 'r-006' }).click();
  await expect(page).toHaveURL(/[?&]rollout=r-006%23a-1/);
  await expect(rolloutRows(page).filter({ hasText: 'r-006' })).toHaveAttribute('aria-selected', 'true');
  const detail = page.getByRole('complementary', { name: 'Rollout details' });
  const finding = detail.getByRole('listitem').filter({ hasText: 'E_LOGPROB_RANGE' });
  await expect(finding).toContainText('error');
  await expect(finding).toContainText('A log-probability is above 0');
  await expect(finding).toContainText('segment 1');
  await screenshot(page, testInfo, 'select-rollout');

  // Arrow keys move the selection; Escape clears it.
  await rolloutGrid(page).press('ArrowUp');
  await expect(page).toHaveURL(/[?&]rollout=r-005%23a-1/);
  await rolloutGrid(page).press('Escape');
  await expect(detail).toBeHidden();
  await expect(page).not.toHaveURL(/rollout=/);
});

test('a link with a rollout opens with that rollout selected', async ({ page }, testInfo) => {
  await page.goto('/?src=/fixtures/mixed.jsonl&rollout=r-004%23a-1');
  const detail = page.getByRole('complementary', { name: 'Rollout details' });
  await expect(detail.getByRole('heading', { name: 'r-004' })).toBeVisible();
  await expect(detail).toContainText('excluded: infrastructure failure');
  await screenshot(page, testInfo, 'rollout-link');
});
