import { expect, type Page, test } from '@playwright/test';
import { screenshot } from './support/app';
import { openTokens, tokenAt, tokenList } from './support/tokens';

const ARTICLE = '/?rollout=r-article%23a-1&view=rollout&tab=tokens';

/** The token rows' laid-out height (rows × row height), once the Qwen3 tokenizer has decoded the chips. */
async function laidOutHeight(page: Page): Promise<string> {
  await expect(page.getByText(/Decoding: decoded with the bundled Qwen3 tokenizer/)).toBeVisible({ timeout: 20_000 });
  await expect(tokenAt(page, 0)).toBeVisible();
  return tokenList(page)
    .locator('.tok-grid__rows')
    .evaluate((el) => (el as HTMLElement).style.height);
}

// A token grid starts from the last grid's measurements (TokenGrid's lastBox), so a rollout opened next
// lays out its rows in its first render; its own measurement must still win when the width changed.
test('a token view opened after the window narrowed lays its rows out at the new width', async ({ page }, testInfo) => {
  await page.setViewportSize({ width: 760, height: 800 });
  await page.goto(ARTICLE);
  const narrow = await laidOutHeight(page);

  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto(ARTICLE);
  const wide = await laidOutHeight(page);
  // The width decides this rollout's rows, so a grid laid out at the old width would show.
  expect(wide).not.toBe(narrow);

  // In the same page: back to the list, narrower, the same rollout's tokens again.
  await page.getByRole('banner').getByRole('button', { name: 'Rollouts' }).click();
  await page.setViewportSize({ width: 760, height: 800 });
  await openTokens(page, 'r-article');
  expect(await laidOutHeight(page)).toBe(narrow);
  // Every chip in view ends inside the list.
  const overflow = await tokenList(page).evaluate((list) => {
    const right = list.getBoundingClientRect().right;
    return [...list.querySelectorAll('[role="option"]')].filter((c) => c.getBoundingClientRect().right > right + 0.5).length;
  });
  expect(overflow).toBe(0);
  await screenshot(page, testInfo, 'token-width-narrowed');
});
