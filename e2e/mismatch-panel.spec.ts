import { expect, test } from '@playwright/test';
import { buildRollout, buildSegment, toJsonl } from '../src/testing/builders';
import { expectLoaded, openWithButton, rolloutGrid, rolloutRows, screenshot } from './support/app';
import { payload } from './support/fixtures';
import { tokenAt, tokenList } from './support/tokens';

test('the demo’s bfloat16 sampler: the Mismatch tab shows §10, the histogram, the ratio chart and the largest |d| linking to tokens', async ({
  page,
}, testInfo) => {
  await page.goto('/?rollout=r-bf16-sampler%23a-1&view=rollout&tab=mismatch');
  await expect(page.getByRole('tab', { name: 'Mismatch' })).toHaveAttribute('aria-selected', 'true');
  const stats = page.getByRole('definition').filter({ hasText: '146 tokens' });
  await expect(stats).toBeVisible({ timeout: 20_000 });
  const totals = page.getByLabel('Mismatch statistics');
  await expect(totals).toContainText('max |d|3.64e-4');
  await expect(totals).toContainText('clipped0');
  await expect(page.getByRole('figure', { name: 'Histogram of d' })).toBeVisible();
  await expect(page.getByRole('figure', { name: 'Importance ratio along the sequence' })).toContainText('the cap C = 2');
  // The per-turn table: one row per segment with compared tokens, six generations.
  await expect(page.getByRole('region', { name: 'Per-segment means' }).getByRole('row')).toHaveCount(7);
  const largest = page.getByRole('region', { name: 'Largest differences' });
  await expect(largest.getByRole('row')).toHaveCount(16);
  await screenshot(page, testInfo, 'mismatch-panel-bf16');

  // The largest |d| first; its position opens the token view on that token of the training sequence.
  const first = largest.getByRole('button', { name: /^Show position \d+ in the token view$/ }).first();
  const pos = Number(await first.textContent());
  await first.click();
  await expect(page.getByRole('tab', { name: 'Tokens' })).toHaveAttribute('aria-selected', 'true');
  await expect(page).toHaveURL(new RegExp(`seq=training&tok=${pos}`));
  await expect(tokenList(page)).toBeVisible();
  await expect(tokenAt(page, pos)).toHaveAttribute('aria-selected', 'true');
});

/* A rollout whose trainer is far off at two tokens: r = e^0.9 and e^1.2 are above C = 2 and are clipped. */
const segment = buildSegment({
  input_ids: [1, 2, 3],
  input_tokens: ['<|im_start|>', 'user', '\n'],
  generated_ids: [20, 21, 22, 23],
  generated_tokens: ['low', ' =', ' mid', ' + 1'],
  old_logprobs: [-1.5, -0.2, -2.4, -0.7],
});
const clippedFile = {
  name: 'clipped.jsonl',
  text: toJsonl([
    buildRollout({
      rollout_id: 'r-clipped',
      tokenizer: { name: 'test/words', version: '1' },
      segments: [segment],
      training: {
        sequence_ids: [1, 2, 3, 20, 21, 22, 23],
        loss_mask: [0, 0, 0, 1, 1, 1, 1],
        logprobs: [null, null, null, -0.6, -0.2, -1.2, -0.75],
      },
    }),
    buildRollout({ rollout_id: 'r-untrained', segments: [segment] }),
  ]),
};

test('clipped ratios are marked and counted; the run list ranks and filters by mismatch, the filter in the URL', async ({
  page,
}, testInfo) => {
  await page.goto('/');
  await openWithButton(page, payload(clippedFile));
  await expectLoaded(page, 2);
  // The mismatch columns appear because a rollout has a training record; the other shows a dash.
  const grid = rolloutGrid(page);
  await expect(grid.getByRole('columnheader', { name: /max \|d\|/ })).toBeVisible();
  await expect(rolloutRows(page).filter({ hasText: 'r-clipped' })).toContainText('1.2');
  await expect(rolloutRows(page).filter({ hasText: 'r-untrained' }).getByTitle('No training record').first()).toBeVisible();

  const filter = page.getByRole('textbox', { name: 'Mismatch above' });
  await filter.fill('0.5');
  await expect(page).toHaveURL(/mis=0\.5/);
  await expect(rolloutRows(page)).toHaveCount(1);
  await expect(page.getByText('1 of 2 rollouts')).toBeVisible();
  await filter.fill('1.5');
  await expect(rolloutRows(page)).toHaveCount(0);
  await filter.fill('0.5');
  await screenshot(page, testInfo, 'run-list-mismatch-filter');

  await rolloutRows(page).first().click();
  await page.getByRole('button', { name: 'Open inspector' }).click();
  await page.getByRole('tab', { name: 'Mismatch' }).click();
  const totals = page.getByLabel('Mismatch statistics');
  await expect(totals).toContainText('Compared4 tokens');
  await expect(totals).toContainText('clipped0.5');
  await expect(page.getByRole('figure', { name: 'Importance ratio along the sequence' })).toContainText('points above it are clipped (2)');
  const largest = page.getByRole('region', { name: 'Largest differences' });
  await expect(largest.getByRole('row').nth(1)).toContainText('" mid"');
  await expect(largest.getByRole('row').nth(1)).toContainText('1.2');
  await screenshot(page, testInfo, 'mismatch-panel-clipped');
});

test('a link holds the mismatch filter: the demo at mis=0.0001 lists only the bfloat16 sampler, largest max |d| first', async ({
  page,
}, testInfo) => {
  await page.goto('/?mis=0.0001');
  await expect(page.getByRole('textbox', { name: 'Mismatch above' })).toHaveValue('0.0001');
  await expect(rolloutRows(page)).toHaveCount(1, { timeout: 20_000 });
  await expect(rolloutRows(page).first()).toContainText('r-bf16-sampler');
  await expect(page.getByText('1 of 44 rollouts')).toBeVisible();
  await page.getByRole('button', { name: 'Clear filters' }).click();
  await expect(page).not.toHaveURL(/mis=/);
  const sortByMax = rolloutGrid(page).getByRole('button', { name: /max \|d\|/ });
  await sortByMax.click();
  await sortByMax.click();
  await expect(rolloutRows(page).first()).toContainText('r-bf16-sampler');
  await screenshot(page, testInfo, 'run-list-mismatch-sorted');
});
