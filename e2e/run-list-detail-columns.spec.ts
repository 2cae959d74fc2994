import { expect, type Page, test } from '@playwright/test';
import { expectLoaded, rolloutGrid, rolloutRows, screenshot } from './support/app';

const headers = (page: Page) => rolloutGrid(page).getByRole('columnheader').allTextContents();

test('beside the detail pane the table leaves out what the pane shows, and more on a narrow screen', async ({ page }, testInfo) => {
  await page.goto('/');
  await expectLoaded(page, 44);
  expect((await headers(page)).map((h) => h.trim())).toEqual(expect.arrayContaining(['Task', 'Group', 'Policy']));

  await rolloutRows(page).filter({ hasText: 'r-compacted' }).click();
  await expect(page.getByRole('complementary', { name: 'Rollout details' })).toBeVisible();
  await expect.poll(async () => (await headers(page)).map((h) => h.trim())).not.toContain('Task');
  const shown = (await headers(page)).map((h) => h.trim());
  expect(shown).not.toContain('Policy');
  expect(shown).toContain('Group');
  expect(shown.some((h) => h.startsWith('Warn'))).toBe(true);
  await screenshot(page, testInfo, 'run-list-detail-columns');

  await page.setViewportSize({ width: 1024, height: 700 });
  await expect.poll(async () => (await headers(page)).map((h) => h.trim())).not.toContain('Group');
  // Every number column is on screen beside the pane.
  await screenshot(page, testInfo, 'run-list-detail-columns-narrow');
  await expect(rolloutGrid(page).getByRole('columnheader', { name: /^Warn/ })).toBeInViewport();
  await screenshot(page, testInfo, 'run-list-detail-columns-narrow');

  await page.keyboard.press('Escape');
  await expect.poll(async () => (await headers(page)).map((h) => h.trim())).toContain('Task');
});
