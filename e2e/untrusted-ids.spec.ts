import { expect, test } from '@playwright/test';
import { buildRollout, toJsonl } from '../src/testing/builders';
import { expectLoaded, openWithButton, rolloutRows } from './support/app';
import { payload } from './support/fixtures';

// Ids are untrusted text too: direction overrides, lone surrogates (valid JSON) and any length.
const BIDI = 'r-\u202eevil';
const LONE = 'e-lone\ud800';
const LONG = `r-${'x'.repeat(5000)}`;
const file = {
  name: 'odd-ids.jsonl',
  text: toJsonl([
    buildRollout({ rollout_id: BIDI, attempt_id: 'a-1' }),
    buildRollout({ rollout_id: LONE, attempt_id: 'a-1' }),
    buildRollout({ rollout_id: LONG, attempt_id: 'a-1' }),
  ]),
};

test.beforeEach(async ({ page }) => {
  await page.goto('/');
  await openWithButton(page, payload(file));
  await expectLoaded(page, 3);
});

test('a right-to-left override in an id stays inside the id: the attempt still reads after it', async ({ page }) => {
  const row = rolloutRows(page).nth(0);
  await expect(row).toContainText('evil');
  // Where the id's text and the attempt are drawn, measured on the text itself (whatever wraps it).
  const boxes = await row.evaluate((el) => {
    const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    const rect = (text: string) => {
      for (let n = walker.nextNode(); n; n = walker.nextNode()) {
        if (!n.textContent?.includes(text)) continue;
        const range = document.createRange();
        range.selectNodeContents(n);
        return range.getBoundingClientRect();
      }
      return null;
    };
    const id = rect('evil');
    walker.currentNode = el;
    const attempt = rect('a-1');
    return id && attempt ? { idRight: id.right, attemptLeft: attempt.left } : null;
  });
  expect(boxes).not.toBeNull();
  expect(boxes?.attemptLeft).toBeGreaterThanOrEqual((boxes?.idRight ?? 0) - 1);
});

test('an id with a lone surrogate can be selected and opened (the URL carries it as U+FFFD)', async ({ page }) => {
  await rolloutRows(page).nth(1).click();
  await expect(rolloutRows(page).nth(1)).toHaveAttribute('aria-selected', 'true');
  await page.getByRole('button', { name: 'Open inspector' }).click();
  await expect(page.getByRole('heading', { level: 2 }).filter({ hasText: 'e-lone' })).toBeVisible();
  await expect(page.getByText('No rollout')).toHaveCount(0);
});

test('a 5,000-character id keeps the detail pane usable: the title is cut, the button still opens it', async ({ page }) => {
  await rolloutRows(page).nth(2).click();
  const detail = page.getByRole('complementary', { name: 'Rollout details' });
  const title = detail.getByRole('heading', { level: 2 });
  expect((await title.boundingBox())?.height ?? 999).toBeLessThan(80);
  await expect(title).toHaveAttribute('title', LONG);
  await detail.getByRole('button', { name: 'Open inspector' }).click();
  await expect(page).toHaveURL(/view=rollout/);
});
