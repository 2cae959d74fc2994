import { expect, type Page } from '@playwright/test';
import { rolloutRows } from './app';

/** The token view's chip list (a listbox; each chip is an option named "position N: …"). */
export function tokenList(page: Page) {
  return page.getByRole('listbox', { name: 'Tokens' });
}

/** The chip at a 0-based position. */
export function tokenAt(page: Page, position: number) {
  return tokenList(page).getByRole('option', { name: new RegExp(`^position ${position}:`) });
}

/** The panel that describes the hovered or selected token. */
export function tokenDetails(page: Page) {
  return page.getByRole('complementary', { name: 'Token details' });
}

/** From the run list: selects a rollout, opens its inspector and the Tokens tab. */
export async function openTokens(page: Page, rolloutId: string): Promise<void> {
  await rolloutRows(page).filter({ hasText: rolloutId }).first().click();
  await page.getByRole('button', { name: 'Open inspector' }).click();
  await page.getByRole('tab', { name: 'Tokens' }).click();
  await expect(tokenList(page)).toBeVisible();
}
