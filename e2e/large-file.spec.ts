import { expect, test } from '@playwright/test';
import { buildRollout, toJsonl } from '../src/testing/builders';
import { expectLoaded, openWithButton, rolloutGrid, rolloutRows, screenshot } from './support/app';

/** The size this guard is stated at: the table must stay virtualized well past it. */
const ROLLOUTS = 20_000;

test(`a file of ${ROLLOUTS.toLocaleString('en-US')} rollouts keeps only the visible rows in the page`, async ({ page }, testInfo) => {
  // 10 s alone on this machine, over 30 s beside another heavy test in CI's second worker.
  test.setTimeout(60_000);
  const terminations = ['finished', 'finished', 'budget_exhausted', 'invalid_call', 'infra_failure'] as const;
  const records = Array.from({ length: ROLLOUTS }, (_, i) => {
    const termination = terminations[i % terminations.length] ?? 'finished';
    return buildRollout({
      rollout_id: `r-${String(i + 1).padStart(5, '0')}`,
      task_id: `task-${i % 50}`,
      termination,
      reward: termination === 'infra_failure' ? null : (i % 3) / 2,
    });
  });
  await page.goto('/');
  await openWithButton(page, { name: 'large.jsonl', mimeType: 'application/x-ndjson', buffer: Buffer.from(toJsonl(records)) });

  await expectLoaded(page, ROLLOUTS, 20_000);
  expect(await rolloutRows(page).count()).toBeLessThan(100);

  await rolloutGrid(page).press('End');
  await expect(page).toHaveURL(/rollout=r-20000/);
  await expect(rolloutRows(page).filter({ hasText: 'r-20000' })).toBeVisible();
  expect(await rolloutRows(page).count()).toBeLessThan(100);
  await screenshot(page, testInfo, 'large-file');
});
