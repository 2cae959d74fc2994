import { createHash } from 'node:crypto';
import { expect, type Page, test } from '@playwright/test';
import { buildChain, buildRollout, toJsonl } from '../src/testing/builders';
import { expectLoaded, openWithButton, rolloutRows, screenshot } from './support/app';
import { payload } from './support/fixtures';

const PATCH =
  '--- a/search.py\n+++ b/search.py\n@@ -7,3 +7,3 @@\n         if a[mid] < target:\n-            low = mid\n+            low = mid + 1\n         else:\n';
const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

function graded(rollout_id: string, artifact_digest: string | undefined) {
  return buildRollout({
    rollout_id,
    ...buildChain([{ tool: 'edit', args: { path: 'search.py', old: 'low = mid', new: 'low = mid + 1' } }, { tool: 'finish' }]),
    reward: 1,
    grading: {
      verdict: 'pass',
      private_tests: { passed: ['hidden two elements'], failed: [] },
      artifact: PATCH,
      ...(artifact_digest === undefined ? {} : { artifact_digest }),
      grader: { name: 'private-tests', version: 'g-1' },
    },
  });
}

/** One artifact, three digests: one of a patch the grader never saw, one bare-hex match, none at all. */
const CRAFTED = {
  name: 'tampered.jsonl',
  text: toJsonl([
    graded('r-tampered', `sha256:${sha256(PATCH.replace('mid + 1', 'mid + 2'))}`),
    graded('r-bare', sha256(PATCH)),
    graded('r-undigested', undefined),
  ]),
};

async function openAudit(page: Page, rolloutId: string): Promise<void> {
  await rolloutRows(page).filter({ hasText: rolloutId }).click();
  await page.getByRole('button', { name: 'Open inspector' }).click();
  await page.getByRole('tab', { name: 'Grader audit' }).click();
}

test('an artifact whose recorded digest does not match it is flagged loudly', async ({ page }, testInfo) => {
  await page.goto('/');
  await openWithButton(page, payload(CRAFTED));
  await expectLoaded(page, 3);
  await openAudit(page, 'r-tampered');

  const alarm = page.getByRole('alert').filter({ hasText: 'Digest mismatch' });
  await expect(alarm).toBeVisible();
  await expect(alarm).toContainText(`recordedsha256:${sha256(PATCH.replace('mid + 1', 'mid + 2'))}`);
  await expect(alarm).toContainText(`computedsha256:${sha256(PATCH)}`);
  await expect(page.getByText('digest matches', { exact: false })).toHaveCount(0);
  // The artifact is shown as text, its lines coloured by kind.
  const diff = page.getByRole('region', { name: 'Submitted diff' });
  await expect(diff.getByText('+            low = mid + 1')).toHaveClass(/diff__code/);
  await screenshot(page, testInfo, 'audit-digest-mismatch');

  // Bare hex is accepted; an absent digest is said plainly.
  await page.keyboard.press('j');
  await expect(page.getByRole('heading', { name: /r-bare/ })).toBeVisible();
  await expect(page.getByRole('status').filter({ hasText: 'Digest matches' })).toBeVisible();
  await page.keyboard.press('j');
  await expect(page.getByRole('heading', { name: /r-undigested/ })).toBeVisible();
  await expect(page.getByText('No artifact_digest recorded')).toBeVisible();
  await expect(page.getByText(sha256(PATCH))).toBeVisible();
});

test('a demo rollout’s artifact matches its recorded digest, and its checks pass', async ({ page }, testInfo) => {
  await page.goto('/?rollout=r-article%23a-1&view=rollout&tab=audit');
  await expect(page.getByRole('status').filter({ hasText: 'Digest matches' })).toBeVisible();
  await expect(page.getByText('sha256:a6f81f41acd7f4e6f0f8bbaaf4395bdd615b2c6757ca7a9a178567d324327d26')).toBeVisible();
  await expect(page.getByRole('alert')).toHaveCount(0);

  const checks = page.getByRole('list', { name: 'Consistency checks' }).getByRole('listitem');
  await expect(checks.filter({ hasText: 'Reward under the contract' })).toContainText('reward 1 agrees: verdict pass → 1.');
  await expect(checks.getByRole('img', { name: 'problem' })).toHaveCount(0);
  await expect(page.getByText('trajscope-demo-private-tests')).toBeVisible();
  await expect(page.getByRole('list', { name: 'Private test results' }).getByRole('listitem')).toHaveCount(4);
  await screenshot(page, testInfo, 'audit-digest-match');
});

test('“dev tests passed, private verdict failed” stands out beside the two sets of tests', async ({ page }, testInfo) => {
  // r-g4-01 fixes one of two bugs: the public dev tests cannot see the other.
  await page.goto('/?rollout=r-g4-01%23a-1&view=rollout&tab=audit');
  await expect(page.getByText('Dev tests passed, private verdict failed.')).toBeVisible();
  const dev = page.getByRole('list', { name: 'Dev test results' }).getByRole('listitem');
  await expect(dev.filter({ hasText: 'passed' })).toHaveCount(await dev.count());
  await expect(
    page.getByRole('list', { name: 'Private test results' }).getByRole('listitem').filter({ hasText: 'failed' }).first(),
  ).toBeVisible();
  await expect(page.getByRole('status').filter({ hasText: 'Digest matches' })).toBeVisible();
  await screenshot(page, testInfo, 'audit-dev-pass-private-fail');
});
