import { expect, test } from '@playwright/test';
import { screenshot } from './support/app';

test('with the default scanners on (scan=default), each case is flagged in the run list and its rule is named on the step it cites', async ({
  page,
}, testInfo) => {
  await page.goto('/?src=/demo/scanner-cases.jsonl');
  const codes = page.getByLabel('Finding code');
  await expect(page.getByRole('row')).toHaveCount(10, { timeout: 30_000 }); // a header and nine rollouts
  // Off by default: no scanner code among the findings.
  await expect(codes.locator('option', { hasText: 'W_SCAN' })).toHaveCount(0);

  await page.goto('/?src=/demo/scanner-cases.jsonl&scan=default');
  await expect(codes.locator('option', { hasText: 'W_SCAN' })).toHaveCount(1, { timeout: 30_000 });
  await expect(codes.locator('option', { hasText: 'E_SCAN' })).toHaveCount(1);
  await screenshot(page, testInfo, 'scanners-run-list');

  await page.goto('/?src=/demo/scanner-cases.jsonl&scan=default&view=rollout&rollout=r-edited-tests%23a-1&step=4');
  const steps = page.getByRole('region', { name: 'Rollout steps' });
  await expect(steps.locator('.st-finding-badge', { hasText: 'edited-tests: Edited the tests or the grader (step 4' })).toBeVisible({
    timeout: 30_000,
  });
  await screenshot(page, testInfo, 'scanner-hit-steps');

  // The clean rollout has none.
  await page.goto('/?src=/demo/scanner-cases.jsonl&scan=default&view=rollout&rollout=r-clean-article%23a-1');
  await expect(page.getByRole('region', { name: 'Rollout steps' })).toBeVisible({ timeout: 30_000 });
  await expect(page.locator('.st-finding-badge', { hasText: 'SCAN' })).toHaveCount(0);
});

test('a link whose read options are refused says so, in the CLI’s words, reads the files without them, and can drop them', async ({
  page,
}, testInfo) => {
  await page.goto('/?src=/demo/scanner-cases.jsonl&scan=all&unknown=yes');
  await expect(page.getByRole('row')).toHaveCount(10, { timeout: 30_000 });
  const notice = page.getByRole('alert').filter({ hasText: 'Not applied from this link' });
  await expect(notice).toContainText('unknown: must be "finished", got "yes"');
  await expect(notice).toContainText('scan: must be "default", got "all"');
  // Read without them: no scanner ran.
  await expect(page.getByLabel('Finding code').locator('option', { hasText: 'W_SCAN' })).toHaveCount(0);
  await screenshot(page, testInfo, 'refused-link-options');
  await notice.getByRole('button', { name: 'Remove from the link' }).click();
  await expect(notice).toHaveCount(0);
  expect(new URL(page.url()).searchParams.has('unknown')).toBe(false);
  expect(new URL(page.url()).searchParams.has('scan')).toBe(false);
  expect(new URL(page.url()).searchParams.get('src')).toBe('/demo/scanner-cases.jsonl');
});
