import { expect, test } from '@playwright/test';
import { buildRollout } from '../src/testing/builders';
import { expectLoaded, openWithButton, rolloutRows, screenshot } from './support/app';

/*
 * A rollout with a finding per step (issue 18: a 1,000,000-step rollout froze the page for minutes when
 * selected): the detail pane and the Steps view list findings by code, a few of each and a count.
 */
const STEPS = 20_000;

test('a rollout with 20,000 findings shows them as counts by code, not 20,000 rows', async ({ page }, testInfo) => {
  const steps = Array.from({ length: STEPS }, (_, i) => ({
    tool_call_id: `s-${i}`,
    tool: 'run_tests',
    args: {},
    observation: { status: 'ok', text: `${i}` },
  }));
  const text = `${JSON.stringify(buildRollout({ rollout_id: 'huge', steps }))}\n${JSON.stringify(buildRollout({ rollout_id: 'small' }))}\n`;
  await page.goto('/');
  await openWithButton(page, { name: 'huge.jsonl', mimeType: 'application/x-ndjson', buffer: Buffer.from(text) });
  await expectLoaded(page, 2, 30_000);

  await rolloutRows(page).filter({ hasText: 'huge' }).first().click();
  const findings = page.getByRole('complementary', { name: 'Rollout details' }).getByRole('region', { name: 'Findings' });
  await expect(findings.getByRole('heading')).toContainText(`(${(STEPS + 1).toLocaleString('en-US')})`, { timeout: 30_000 });
  // Five shown and one line counting the rest, per code.
  await expect(findings.getByRole('listitem')).toHaveCount(6);
  await expect(findings).toContainText(`… and ${(STEPS + 1 - 5).toLocaleString('en-US')} more W_ORPHAN_CALL`);
  await screenshot(page, testInfo, 'huge-rollout-detail');
});

test('the Grader audit of a 120,000-step rollout reads its steps in slices and lists 50 process scores and a count', async ({
  page,
}, testInfo) => {
  test.setTimeout(120_000);
  const n = 120_000;
  const steps = Array.from({ length: n }, (_, i) => ({
    tool_call_id: `s-${i}`,
    tool: i === n - 1 ? 'finish' : 'run_tests',
    args: {},
    observation: { status: 'ok', text: `${i}` },
    process_reward: (i % 10) / 10,
  }));
  const text = `${JSON.stringify(buildRollout({ rollout_id: 'long', steps }))}\n${JSON.stringify(buildRollout({ rollout_id: 'small' }))}\n`;
  await page.goto('/');
  await openWithButton(page, { name: 'long.jsonl', mimeType: 'application/x-ndjson', buffer: Buffer.from(text) });
  await expectLoaded(page, 2, 60_000);
  await rolloutRows(page).filter({ hasText: 'long' }).first().dblclick();
  await page.getByRole('tab', { name: 'Grader audit' }).click();
  const scores = page.getByRole('region', { name: 'Process scores' });
  await expect(scores.getByRole('table')).toBeVisible({ timeout: 60_000 });
  // 50 rows of steps and one counting the rest, not 120,000 rows.
  await expect(scores.getByRole('row')).toHaveCount(1 + 50 + 1);
  await expect(scores).toContainText(`… and ${(n - 50).toLocaleString('en-US')} more rows (steps 51–${n})`);
  // The sliced pass found the first finish (the last step) and the last run_tests, as the whole walks did.
  await expect(page.getByText(`The finish at step ${n} has no verdict`).first()).toBeVisible();
  await expect(page.getByText(`last run_tests, step ${n - 1}`)).toBeVisible();
  await screenshot(page, testInfo, 'huge-rollout-audit');
  await scores.getByText('more rows').scrollIntoViewIfNeeded();
  await screenshot(page, testInfo, 'huge-rollout-audit-scores');
});
