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

test('while a rollout is open, the hidden list takes no click, no Tab and no screen reader', async ({ page }) => {
  await page.goto('/');
  await expectLoaded(page, 44);
  const firstRow = rolloutRows(page).first();
  const box = await firstRow.boundingBox();
  if (!box) throw new Error('no row');
  await firstRow.dblclick();
  await expect(page).toHaveURL(/[?&]view=rollout/);
  const hidden = page.locator('.kept-page--hidden');
  await expect(hidden).toHaveCount(1);
  // Its rows keep their layout (content-visibility), under the rollout page: whatever the pointer lands on,
  // anywhere in the page's area (the first row's place among them), belongs to the rollout page or the
  // shell, never to the hidden list or its own empty box.
  const main = await page.locator('main').boundingBox();
  if (!main) throw new Error('no main');
  const points = [{ x: box.x + box.width / 2, y: box.y + box.height / 2 }];
  for (let i = 1; i < 10; i++)
    for (let j = 1; j < 10; j++) points.push({ x: main.x + (main.width * i) / 10, y: main.y + (main.height * j) / 10 });
  const hits = await page.evaluate(
    (points) =>
      points.map(({ x, y }) => {
        const el = document.elementFromPoint(x, y);
        return el === null ? 'nothing' : el.closest('.kept-page--hidden') !== null ? 'list' : 'other';
      }),
    points,
  );
  expect(hits.filter((h) => h !== 'other')).toEqual([]);
  await expect(rolloutGrid(page)).toHaveCount(0);
  // Forty Tabs go round the rollout page and the shell, never into the list.
  for (let i = 0; i < 40; i++) {
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.closest('.kept-page--hidden') !== null)).toBe(false);
  }
});

test('a double click that opens a row selects no word of it, which stayed highlighted in the list', async ({ page }) => {
  await page.goto('/');
  await expectLoaded(page, 44);
  // On the rollout's id, a word a double click would select.
  await rolloutRows(page).first().getByText('r-article').dblclick();
  await expect(page).toHaveURL(/[?&]view=rollout/);
  // The browser's Back: nothing clicked or focused that would clear a selection on the way.
  await page.goBack();
  await expect(rolloutRows(page).first()).toBeVisible();
  expect(await page.evaluate(() => String(window.getSelection()))).toBe('');
});
