import { expect, type Page, test } from '@playwright/test';
import { rolloutRows, screenshot } from './support/app';
import { expectReviewsReady, review, reviewProgress } from './support/reviews';

function showing(page: Page, rolloutId: string) {
  return expect(page.getByRole('heading', { level: 2, name: new RegExp(`^${rolloutId}\\b`) })).toBeVisible();
}

test('“next unreviewed” and “next disagreed” skip to the rollouts the review filters keep', async ({ page }, testInfo) => {
  // File order of the demo: r-article, r-regression, r-budget, r-invalid, r-infra a-1, …
  await page.goto('/?rollout=r-article%23a-1&view=rollout&tab=audit');
  await expectReviewsReady(page, 44);
  const nextUnreviewed = review(page).getByRole('button', { name: 'Next unreviewed ›' });
  const nextDisagreed = review(page).getByRole('button', { name: 'Next disagreed ›' });
  await expect(nextDisagreed).toBeDisabled();

  await page.keyboard.press('a');
  await page.keyboard.press('j');
  await showing(page, 'r-regression');
  await page.keyboard.press('d');
  await page.keyboard.press('k');
  await showing(page, 'r-article');

  // r-regression is reviewed, so the next unreviewed rollout after r-article is r-budget.
  await nextUnreviewed.click();
  await showing(page, 'r-budget');
  await expect(page).toHaveURL(/[?&]tab=audit/);
  await page.keyboard.press('d');

  // From r-budget the next disagreed one comes round from the start: r-regression.
  await nextDisagreed.click();
  await showing(page, 'r-regression');
  await nextDisagreed.click();
  await showing(page, 'r-budget');
  await nextUnreviewed.click();
  await showing(page, 'r-invalid');

  const disagreed = review(page).getByText('Disagreed:').locator('..');
  await expect(disagreed.getByRole('button')).toHaveText(['r-regression · a-1', 'r-budget · a-1']);
  await expect(reviewProgress(page)).toHaveText('3 of 44 reviewed');
  await expect(review(page)).toContainText('1 agree · 2 disagree · 0 unsure');
  await screenshot(page, testInfo, 'review-filters');

  // A disagreement changed to agree leaves the filter.
  await disagreed.getByRole('button', { name: 'r-budget · a-1' }).click();
  await showing(page, 'r-budget');
  await page.keyboard.press('a');
  await expect(disagreed.getByRole('button')).toHaveText(['r-regression · a-1']);
});

test('with every rollout reviewed there is no next unreviewed one', async ({ page }) => {
  await page.goto('/?rollout=r-article%23a-1&view=rollout&tab=audit');
  await expectReviewsReady(page, 44);
  const nextUnreviewed = review(page).getByRole('button', { name: 'Next unreviewed ›' });
  for (let i = 0; i < 44; i++) {
    await page.keyboard.press('u');
    await expect(reviewProgress(page)).toHaveText(`${i + 1} of 44 reviewed`);
    if (i < 43) await nextUnreviewed.click();
  }
  await expect(nextUnreviewed).toBeDisabled();
});

test('the run list filters unreviewed and disagreed rollouts', async ({ page }, testInfo) => {
  await page.goto('/?rollout=r-article%23a-1&view=rollout&tab=audit');
  await expectReviewsReady(page, 44);
  await page.keyboard.press('a');
  await page.keyboard.press('j');
  await showing(page, 'r-regression');
  await page.keyboard.press('d');
  await expect(reviewProgress(page)).toHaveText('2 of 44 reviewed');

  await page.getByRole('button', { name: '← All rollouts' }).click();
  const filter = page.getByRole('combobox', { name: 'Review' });
  await filter.selectOption('disagreed');
  await expect(rolloutRows(page)).toHaveCount(1);
  await expect(rolloutRows(page).first()).toContainText('r-regression');
  await expect(page.getByText('1 of 44 rollouts')).toBeVisible();
  await screenshot(page, testInfo, 'run-list-review-filter');

  await filter.selectOption('unreviewed');
  await expect(page.getByText('42 of 44 rollouts')).toBeVisible();
  await expect(rolloutRows(page).filter({ hasText: 'r-article' })).toHaveCount(0);
  await expect(rolloutRows(page).filter({ hasText: 'r-regression' })).toHaveCount(0);
});
