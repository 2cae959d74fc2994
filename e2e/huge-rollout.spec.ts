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
