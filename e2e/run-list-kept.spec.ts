import { expect, test } from '@playwright/test';
import { expectLoaded, rolloutGrid, rolloutRows, screenshot } from './support/app';

// The run list stays mounted, hidden, while a rollout is open (docs/adr/0033). Coming back it must show
// what the reader expects: where they left it, or the rollout they moved to from the rollout page.

test('back from a rollout reached by next ›, the list shows that rollout, selected and in view', async ({ page }, testInfo) => {
  await page.goto('/');
  await expectLoaded(page, 44);
  await rolloutRows(page).first().dblclick();
  await expect(page).toHaveURL(/[?&]view=rollout/);
  const next = page.getByRole('button', { name: 'next ›' });
  // Far enough down the list that its row was never in view: 36 of 44.
  for (let i = 1; i < 36; i++) {
    await expect(page.getByText(`${i} of 44`)).toBeVisible();
    await next.click();
  }
  await expect(page.getByText('36 of 44')).toBeVisible();
  const id = /[?&]rollout=([^&#%]+)/.exec(page.url())?.[1];
  expect(id).toBeTruthy();
  await page.keyboard.press('Escape');
  await expect(page).not.toHaveURL(/view=rollout/);
  const row = rolloutRows(page)
    .filter({ hasText: `${id}` })
    .first();
  await expect(row).toHaveAttribute('aria-selected', 'true');
  await expect(row).toBeInViewport();
  await expect(rolloutGrid(page)).toBeFocused();
  await screenshot(page, testInfo, 'run-list-kept-next');
});

test('back from a rollout opened in the list, the list is where it was left, not scrolled to its row', async ({ page }) => {
  await page.goto('/');
  await expectLoaded(page, 44);
  const scroller = page.locator('.runs');
  await scroller.hover();
  await page.mouse.wheel(0, 280);
  await expect.poll(() => scroller.evaluate((el) => el.scrollTop)).toBeGreaterThan(200);
  // A row near the bottom of the view: a list drawn afresh would centre it.
  const rows = rolloutRows(page);
  const box = await scroller.boundingBox();
  await page.mouse.click((box?.x ?? 0) + 200, (box?.y ?? 0) + (box?.height ?? 0) - 50);
  await expect(rows.and(page.locator('[aria-selected="true"]'))).toHaveCount(1);
  const top = await scroller.evaluate((el) => el.scrollTop);
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/[?&]view=rollout/);
  await page.keyboard.press('Escape');
  await expect(page).not.toHaveURL(/view=rollout/);
  await expect(rolloutGrid(page)).toBeFocused();
  expect(await scroller.evaluate((el) => el.scrollTop)).toBe(top);
});
