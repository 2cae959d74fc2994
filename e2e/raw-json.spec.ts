import { expect, test } from '@playwright/test';
import { buildRollout, buildSegment, buildStep, toJsonl } from '../src/testing/builders';
import { expectLoaded, openWithButton, screenshot } from './support/app';
import { payload } from './support/fixtures';
import { gotoSteps, openSteps } from './support/steps';

const BIG = 100_000;

const file = {
  name: 'unknown-fields.jsonl',
  text: toJsonl([
    {
      ...buildRollout({
        rollout_id: 'r-extra',
        segments: [
          {
            ...buildSegment({ input_ids: Array.from({ length: BIG }, (_, i) => i % 50_000), tool_call_id: 'c-1' }),
            sampler_note: 'kept segment field',
          },
        ],
        steps: [{ ...buildStep({ tool_call_id: 'c-1' }), cost_usd: 0.0042 }],
      }),
      curriculum: { stage: 3, tags: ['hard', 'search'] },
    },
  ]),
};

test('the raw view shows unknown fields and keeps a 100k-token record quick', async ({ page, context }, testInfo) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await page.goto('/');
  await openWithButton(page, payload(file));
  await expectLoaded(page, 1);
  await openSteps(page, 'r-extra');
  await page.getByRole('tab', { name: 'Raw JSON' }).click();

  const doc = page.getByRole('document', { name: 'Raw JSON' });
  await expect(doc).toContainText('"curriculum": {');
  await expect(doc).toContainText('"stage": 3');
  await expect(doc).toContainText('"sampler_note": "kept segment field"');
  await expect(doc).toContainText('"cost_usd": 0.0042');
  await expect(page.getByText('curriculum, segments[*].sampler_note, steps[*].cost_usd')).toBeVisible();

  // Token ids on one line, cut short until asked for.
  await expect(doc).toContainText('"input_ids": [0, 1, 2, 3,');
  const showAll = doc.getByRole('button', { name: `… show all ${BIG.toLocaleString('en-US')} numbers` });
  await expect(showAll).toBeVisible();
  await expect(doc).not.toContainText('49999, 0, 1');
  await screenshot(page, testInfo, 'raw-json');
  await showAll.click();
  await expect(doc).toContainText('49999, 0, 1');

  // The copy is the whole record, valid JSON.
  await page.getByRole('button', { name: 'Copy JSON' }).click();
  await expect(page.getByText(/^Copied .+ to the clipboard$/)).toBeVisible();
  const copied = JSON.parse(await page.evaluate(() => navigator.clipboard.readText()));
  expect(copied.curriculum).toEqual({ stage: 3, tags: ['hard', 'search'] });
  expect(copied.segments[0].input_ids).toHaveLength(BIG);
});

test('the demo rollouts’ scenario notes appear in the raw view', async ({ page }, testInfo) => {
  await gotoSteps(page, 'r-retry#a-1');
  await page.getByRole('tab', { name: 'Raw JSON' }).click();
  await expect(page).toHaveURL(/[?&]tab=raw(&|$)/);
  const doc = page.getByRole('document', { name: 'Raw JSON' });
  await expect(doc).toContainText('"scenario": {');
  await expect(doc).toContainText('"steered": "prefix"');
  await expect(doc).toContainText('"attempts": 2');
  await expect(page.getByText('fields outside format v1:')).toBeVisible();
  await screenshot(page, testInfo, 'raw-json-demo');
});
