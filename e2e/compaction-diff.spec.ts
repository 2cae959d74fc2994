import { expect, test } from '@playwright/test';
import { screenshot } from './support/app';
import { gotoSteps, stepRow } from './support/steps';

test('a compacted context shows the dropped text struck through, the replacement, and the finding', async ({ page }, testInfo) => {
  // r-compacted: before the 4th generation the harness replaced the stale read_file output with "[output omitted]".
  await gotoSteps(page, 'r-compacted#a-1', '&step=4');
  const row = stepRow(page, 4);
  await expect(row).toHaveAttribute('aria-current', 'true');
  await expect(row).toContainText('context rewritten: 77 tokens dropped, 61 tokens added');
  await expect(row).toContainText('−77 dropped');
  // The counts add up: 656 in this context = 595 kept (in several runs) + 61 new.
  await expect(row).toContainText('656 tokens');
  await expect(row).toContainText('595 kept');
  await expect(row).toContainText('+61 new');

  const dropped = row.getByRole('deletion');
  await expect(dropped).toContainText('def search(a, target):');
  await expect(dropped).toContainText('high = mid');
  expect(await dropped.evaluate((el) => getComputedStyle(el).textDecorationLine)).toBe('line-through');
  await expect(row.getByRole('insertion').filter({ hasText: '[output omitted]' })).toBeVisible();

  // The finding on the row, its message one click away.
  const finding = row.getByRole('group').filter({ hasText: 'W_CONTEXT_REWRITTEN' });
  await expect(finding).toContainText('Earlier context was dropped or changed (compacted, re-tokenized, …)');
  await finding.getByText('W_CONTEXT_REWRITTEN').click();
  await expect(finding).toContainText('segment 3');
  await expect(row).toContainText('E_TRAINING_CONTEXT');
  // The trainer's mask is about the whole rollout: it sits above the steps.
  await expect(page.getByRole('region', { name: 'Rollout findings' })).toContainText('E_TRAINING_MASK');
  await screenshot(page, testInfo, 'compaction-diff');

  // The rows before the compaction only append.
  const before = stepRow(page, 3);
  await before.scrollIntoViewIfNeeded();
  await expect(before).not.toContainText('context rewritten');
  await expect(before.getByRole('deletion')).toHaveCount(0);
});
