import { expect, test } from '@playwright/test';
import { screenshot } from './support/app';
import { tokenAt, tokenDetails, tokenList } from './support/tokens';

test('a demo rollout’s training sequence decodes Qwen3 text, and the selector switches to a segment', async ({ page }, testInfo) => {
  // Position 492 is the first token r-article's model generated (segment 0 has 492 context tokens).
  await page.goto('/?rollout=r-article%23a-1&view=rollout&tab=tokens&tok=492');

  // The training sequence is the default; its prompt has no token strings, so the lazily loaded
  // Qwen3 tokenizer decodes it.
  const sequence = page.getByRole('combobox', { name: 'Sequence' });
  await expect(sequence).toHaveValue('training');
  await expect(page.getByText(/Decoding: decoded with the bundled Qwen3 tokenizer/)).toBeVisible({ timeout: 20_000 });
  await expect(page.getByRole('region', { name: 'Token summary' })).toContainText('856 tokens');

  // The first generation: a tool call the model sampled, under the loss.
  const call = tokenAt(page, 492);
  await expect(call).toHaveText('<tool_call>');
  await expect(call).toHaveAttribute('data-role', 'trained');
  await expect(call).toHaveAttribute('aria-selected', 'true');
  await expect(tokenList(page)).toContainText('read_file');
  await call.hover();
  await expect(tokenDetails(page)).toContainText('generated in segment 0');
  await screenshot(page, testInfo, 'token-demo-training');

  await sequence.selectOption({ label: 'Segment 1 (641 tokens)' });
  await expect(page).toHaveURL(/[?&]seq=1(&|$)/);
  await expect(page.getByRole('region', { name: 'Token summary' })).toContainText('641 tokens');
  await expect(tokenAt(page, 0)).toHaveText('<|im_start|>');
  await screenshot(page, testInfo, 'token-demo-segment');
});

test('the compacted demo rollout lists its training findings and shows the wrongly trained tokens', async ({ page }, testInfo) => {
  await page.goto('/?rollout=r-compacted%23a-1&view=rollout&tab=tokens');

  // One entry per code with its explanation; one line per segment under it.
  const findings = page.getByRole('region', { name: 'Token findings' });
  const context = findings.getByRole('listitem').filter({ hasText: 'E_TRAINING_CONTEXT' });
  await expect(context).toContainText('The trainer scores tokens under a context the model never saw');
  await expect(context.getByRole('listitem')).toHaveCount(3);
  await page.getByRole('button', { name: 'Show E_TRAINING_CONTEXT in segment 3' }).click();
  await expect(page).toHaveURL(/[?&]tok=519(&|$)/);
  await expect(tokenAt(page, 519)).toHaveAttribute('aria-selected', 'true');

  await page.getByRole('button', { name: 'Show E_TRAINING_MASK' }).click();
  await expect(page).toHaveURL(/[?&]tok=729(&|$)/);
  await expect(tokenAt(page, 729)).toHaveAttribute('data-role', 'wrongly-trained');
  await expect(tokenAt(page, 729)).toBeInViewport();
  await expect(page.getByRole('region', { name: 'Token summary' })).toContainText('70 wrongly trained');
  await expect(page.getByText(/Decoding: decoded with the bundled Qwen3 tokenizer/)).toBeVisible({ timeout: 20_000 });
  await screenshot(page, testInfo, 'token-demo-compacted');
});

test('the tokens view opens at position 0 and offers the jump to the first trained token past the prompt (issue 31)', async ({
  page,
}, testInfo) => {
  await page.goto('/?rollout=r-article%23a-1&view=rollout&tab=tokens');
  const summary = page.getByRole('region', { name: 'Token summary' });
  await expect(summary).toContainText('856 tokens');
  await summary.getByRole('button', { name: 'first at position 492 ↓' }).click();
  await expect(page).toHaveURL(/[?&]tok=492(&|$)/);
  await expect(tokenAt(page, 492)).toHaveAttribute('data-role', 'trained');
  await expect(tokenAt(page, 492)).toBeInViewport();
  await screenshot(page, testInfo, 'token-first-trained');
});
