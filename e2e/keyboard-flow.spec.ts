import { expect, test } from '@playwright/test';
import { expectLoaded, rolloutGrid, rolloutRows, screenshot } from './support/app';
import { stepRow } from './support/steps';
import { tokenAt } from './support/tokens';

test('the keyboard alone goes from the list into a rollout’s steps and back, never losing focus', async ({ page }, testInfo) => {
  await page.goto('/');
  await expectLoaded(page, 44);
  // Nothing clicked: the list has focus on arrival, so ↓ selects the first rollout.
  await expect(rolloutGrid(page)).toBeFocused();
  await page.keyboard.press('ArrowDown');
  await expect(page).toHaveURL(/[?&]rollout=r-article%23a-1(&|$)/);
  await page.keyboard.press('ArrowDown');
  await expect(page).toHaveURL(/[?&]rollout=r-regression%23a-1(&|$)/);

  // Enter opens the inspector; its steps have focus, so ↓ selects steps at once.
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/[?&]view=rollout/);
  await expect(page.getByRole('region', { name: 'Rollout steps' })).toBeFocused();
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowDown');
  await expect(page).toHaveURL(/[?&]step=2(&|$)/);
  await expect(stepRow(page, 2)).toHaveAttribute('aria-current', 'true');
  await screenshot(page, testInfo, 'keyboard-steps');

  // Esc goes back to the list, the rollout still selected there and the list focused again.
  await page.keyboard.press('Escape');
  await expect(page).not.toHaveURL(/view=rollout/);
  await expect(rolloutRows(page).filter({ hasText: 'r-regression' })).toHaveAttribute('aria-selected', 'true');
  await expect(rolloutGrid(page)).toBeFocused();
  await page.keyboard.press('ArrowDown');
  await expect(page).toHaveURL(/[?&]rollout=r-budget%23a-1(&|$)/);
});

test('in the token view Esc first clears the selected token, then goes back to the list', async ({ page }) => {
  await page.goto('/?rollout=r-article%23a-1&view=rollout&tab=tokens&seq=0&tok=3');
  const token = tokenAt(page, 3);
  await expect(token).toHaveAttribute('aria-selected', 'true');
  // Decoding re-flows the chips: click (to focus them) only once they have settled.
  await expect(page.getByText(/Decoding: decoded with the bundled Qwen3 tokenizer/)).toBeVisible({ timeout: 20_000 });
  await token.click();
  await page.keyboard.press('Escape');
  await expect(page).toHaveURL(/view=rollout/);
  await expect(page).not.toHaveURL(/[?&]tok=/);
  await page.keyboard.press('Escape');
  await expect(page).not.toHaveURL(/view=rollout/);
  await expect(rolloutGrid(page)).toBeVisible();
});
