import { expect, test } from '@playwright/test';
import { expectLoaded, openWithButton, problemsPanel, rolloutRows, screenshot } from './support/app';
import { cleanFile, MIXED, payload } from './support/fixtures';

test('opening a file with broken lines lists every good rollout and each bad line in Problems', async ({ page }, testInfo) => {
  await page.goto('/');
  await openWithButton(page, payload(MIXED));

  await expectLoaded(page, MIXED.goodIds.length);
  await expect(page).toHaveURL(/[?&]src=local:mixed\.jsonl/);
  await expect(rolloutRows(page)).toHaveCount(MIXED.goodIds.length);
  for (const id of MIXED.goodIds) await expect(rolloutRows(page).filter({ hasText: id })).toHaveCount(1);

  const problems = problemsPanel(page);
  await expect(problems.getByRole('button', { name: /Problems/ })).toContainText(String(MIXED.badLines.length));
  const items = problems.getByRole('listitem');
  await expect(items).toHaveCount(MIXED.badLines.length);
  for (const { line, code } of MIXED.badLines) {
    await expect(items.filter({ hasText: `line ${line}` })).toContainText(code);
  }
  // The termination badge explains itself: excluded rollouts say so and why.
  await expect(rolloutRows(page).filter({ hasText: 'r-004' }).getByText('infra failure')).toHaveAttribute(
    'title',
    /^excluded: infrastructure failure/,
  );
  await screenshot(page, testInfo, 'open-file');

  await problems.getByRole('button', { name: /Problems/ }).click();
  await expect(items).toHaveCount(0);
  await expect(problems.getByRole('button', { name: /Problems/ })).toHaveAttribute('aria-expanded', 'false');
});

test('opening several files at once reads them together and shows which file each row is from', async ({ page }, testInfo) => {
  await page.goto('/');
  await openWithButton(page, [payload(cleanFile('first.jsonl', 'alpha')), payload(cleanFile('second.jsonl', 'beta', 2))]);

  await expectLoaded(page, 5);
  await expect(rolloutRows(page).filter({ hasText: 'alpha-1' })).toContainText('first.jsonl');
  await expect(rolloutRows(page).filter({ hasText: 'beta-2' })).toContainText('second.jsonl');
  await screenshot(page, testInfo, 'open-several-files');
});

test('after a reload a locally opened file is gone, and the page asks to reopen it', async ({ page }, testInfo) => {
  await page.goto('/');
  await openWithButton(page, payload(cleanFile('local.jsonl', 'l')));
  await expectLoaded(page, 3);

  await page.reload();
  await expect(page.getByRole('heading', { name: 'Reopen the file to continue' })).toBeVisible();
  await expect(page.getByRole('alert')).toContainText('local.jsonl');
  await screenshot(page, testInfo, 'reopen-after-reload');

  await openWithButton(page, payload(cleanFile('local.jsonl', 'l')));
  await expectLoaded(page, 3);
});
