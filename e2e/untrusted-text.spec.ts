import { expect, test } from '@playwright/test';
import { buildRollout, buildSegment, buildStep, toJsonl } from '../src/testing/builders';
import { expectLoaded, openWithButton, problemsPanel, rolloutRows, screenshot } from './support/app';
import { payload } from './support/fixtures';

const IMG = '<img src=x onerror="window.__xss=1">';
const SCRIPT = '<script>window.__xss=2</script>';
const IMG_IN_FINDING = '<img src=y onerror="window.__xss=3">';

const file = {
  name: 'hostile.jsonl',
  text: toJsonl([
    buildRollout({
      rollout_id: IMG,
      task_id: SCRIPT,
      group_id: `<b>group</b>${SCRIPT}`,
      // Unknown termination and an orphan call: both findings quote these strings in their messages.
      termination: IMG_IN_FINDING,
      reward: null,
      segments: [buildSegment({ tool_call_id: SCRIPT })],
      steps: [buildStep({ tool_call_id: SCRIPT })],
    }),
    `${SCRIPT} ${IMG}`,
  ]),
};

test('markup in rollout ids, task ids, findings and bad lines is shown as literal text and never runs', async ({ page }, testInfo) => {
  await page.goto('/');
  await openWithButton(page, payload(file));
  await expectLoaded(page, 1);

  const row = rolloutRows(page).first();
  await expect(row).toContainText(IMG);
  await expect(row).toContainText(SCRIPT);
  await row.click();

  const detail = page.getByRole('complementary', { name: 'Rollout details' });
  await expect(detail.getByRole('heading', { name: IMG })).toBeVisible();
  await expect(detail).toContainText(`termination "${IMG_IN_FINDING}"`);
  await expect(detail).toContainText('W_UNKNOWN_TERMINATION');
  await expect(problemsPanel(page).getByRole('listitem')).toContainText('line 2');
  await screenshot(page, testInfo, 'untrusted-text');

  expect(await page.evaluate(() => Reflect.get(window, '__xss'))).toBeUndefined();
  await expect(page.getByRole('img')).toHaveCount(0);
  expect(await page.evaluate(() => document.querySelectorAll('main script, main img, main b').length)).toBe(0);
});
