import { expect, type Page } from '@playwright/test';

/** The review panel of the audit view. */
export function review(page: Page) {
  return page.getByRole('region', { name: 'Review' });
}

/** "N of M reviewed". */
export function reviewProgress(page: Page) {
  return review(page).getByText(/\d+ of \d+ reviewed/);
}

/** Waits until the file's content digest is known and its stored reviews are read: the verdict buttons work. */
export async function expectReviewsReady(page: Page, total: number, reviewed = 0): Promise<void> {
  await expect(reviewProgress(page)).toHaveText(`${reviewed} of ${total} reviewed`);
  await expect(review(page).getByRole('button', { name: /Agree/ })).toBeEnabled();
}
