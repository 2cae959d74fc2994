import { expect, test } from '@playwright/test';
import { screenshot } from './support/app';
import { gotoSteps, holdTokenizer, stepRow, waitForTokenizer } from './support/steps';

test('a copied link with rollout and step reopens the same rollout with that step selected and in view', async ({ page }, testInfo) => {
  // Two tabs each load the 5 MB tokenizer: 14 s alone, over 30 s beside another heavy test in CI's second worker.
  test.setTimeout(60_000);
  // Step 8 of r-regression starts far below the fold.
  await gotoSteps(page, 'r-regression#a-1', '&step=8');
  const eight = stepRow(page, 8);
  await expect(eight).toHaveAttribute('aria-current', 'true');
  await expect(eight).toBeInViewport();
  await expect(eight).toContainText('run_tests');

  // ↑ in the list moves the selection, and the link follows.
  await page.getByRole('region', { name: 'Rollout steps' }).focus();
  await page.keyboard.press('ArrowUp');
  await expect(page).toHaveURL(/[?&]step=7(&|$)/);
  await expect(stepRow(page, 7)).toHaveAttribute('aria-current', 'true');
  await expect(stepRow(page, 7)).toBeInViewport();

  // Another tab opened on the copied link shows the same place.
  const copied = page.url();
  const other = await page.context().newPage();
  await other.goto(copied);
  await waitForTokenizer(other);
  await expect(other.getByRole('heading', { name: 'r-regression' })).toBeVisible();
  await expect(other.getByRole('tab', { name: 'Steps' })).toHaveAttribute('aria-selected', 'true');
  const seven = stepRow(other, 7);
  await expect(seven).toHaveAttribute('aria-current', 'true');
  await expect(seven).toBeInViewport();
  await expect(seven).toContainText('reverts step 5');
  await screenshot(other, testInfo, 'step-deep-link');

  // Selecting another step by its number rewrites the link; a reload keeps it.
  await other.getByRole('button', { name: 'Select step 6' }).click();
  await expect(other).toHaveURL(/[?&]step=6(&|$)/);
  await other.reload();
  await expect(stepRow(other, 6)).toHaveAttribute('aria-current', 'true');
  await expect(stepRow(other, 6)).toBeInViewport();
});

test('a link to a step that does not exist opens the rollout with nothing selected', async ({ page }) => {
  await gotoSteps(page, 'r-article#a-1', '&step=99');
  await expect(stepRow(page, 1)).toBeVisible();
  await expect(page.locator('[aria-current="true"]')).toHaveCount(0);
});

test('after the reader scrolls away from the linked step, decoding contexts does not pull the view back', async ({ page }) => {
  const release = await holdTokenizer(page);
  await gotoSteps(page, 'r-regression#a-1', '&step=8', { decoded: false });
  await expect(stepRow(page, 8)).toBeInViewport();
  const steps = page.getByRole('region', { name: 'Rollout steps' });
  await steps.hover();
  await page.mouse.wheel(0, -20_000);
  const task = page.getByRole('list', { name: 'Steps' }).getByRole('listitem', { name: 'Task', exact: true });
  await expect(task).toBeInViewport();

  release();
  await waitForTokenizer(page);
  await expect(task).toBeInViewport();
  await expect(stepRow(page, 8)).not.toBeInViewport();
});
