import { expect, test } from '@playwright/test';
import { buildRollout, buildSegment, toJsonl } from '../src/testing/builders';
import { expectLoaded, openWithButton, screenshot } from './support/app';
import { payload } from './support/fixtures';
import { openTokens, tokenAt, tokenDetails, tokenList } from './support/tokens';

const PROMPT = ['<|im_start|>', 'user', '\n', 'Find', ' the', ' bug', '<|im_end|>', '\n'];
const CALL = ['<tool_call>', 'edit', ' low', ' =', ' mid', ' +', ' 1', '</tool_call>'];
const sampled = [-0.02, -0.4, -0.9, -0.05, -0.3, -0.6, -0.1, -0.01];
// The trainer agrees to within 0.2 nat everywhere except " mid" (position 12): 1.7 nat lower.
const DRIFTING = 4;
const trainerOnCall = sampled.map((lp, i) => (i === DRIFTING ? lp - 1.7 : lp - 0.15 * (i % 2)));

const segment = buildSegment({
  input_ids: PROMPT.map((_, i) => i + 1),
  input_tokens: PROMPT,
  generated_ids: CALL.map((_, i) => i + 20),
  generated_tokens: CALL,
  old_logprobs: sampled,
});
const sequence = [...segment.input_ids, ...segment.generated_ids];
const file = {
  name: 'drift.jsonl',
  text: toJsonl([
    buildRollout({
      rollout_id: 'r-drift',
      tokenizer: { name: 'test/words', version: '1' },
      segments: [segment],
      training: {
        sequence_ids: sequence,
        loss_mask: sequence.map((_, i) => (i >= PROMPT.length ? 1 : 0)),
        logprobs: [...PROMPT.map(() => null), ...trainerOnCall],
      },
    }),
  ]),
};

test('drift mode marks the token where trainer and sampler disagree by more than 1 nat', async ({ page }, testInfo) => {
  await page.goto('/');
  await openWithButton(page, payload(file));
  await expectLoaded(page, 1);
  await openTokens(page, 'r-drift');

  const position = PROMPT.length + DRIFTING;
  await expect(page.getByRole('region', { name: 'Token findings' })).toContainText('W_LOGPROB_DRIFT');
  // Probability shading first: nothing is marked as drifting.
  await expect(tokenList(page).locator('[data-drift]')).toHaveCount(0);

  await page.getByRole('radio', { name: 'Drift' }).check();
  await expect(page).toHaveURL(/[?&]shade=drift(&|$)/);
  await expect(tokenAt(page, position)).toHaveAttribute('data-drift', 'over');
  await expect(tokenAt(page, position)).toHaveAccessibleName(/" mid", trained, drift 1\.70 nat, above 1$/);
  await expect(tokenList(page).locator('[data-drift="over"]')).toHaveCount(1);
  await expect(tokenAt(page, position - 1)).toHaveAttribute('data-drift', 'under');
  // Context tokens have no sampled log-prob: nothing to compare.
  await expect(tokenAt(page, 1)).not.toHaveAttribute('data-drift');
  await expect(page.getByRole('region', { name: 'Legend' })).toContainText('above 1 nat is W_LOGPROB_DRIFT');

  await tokenAt(page, position).click();
  await expect(page).toHaveURL(new RegExp(`[?&]tok=${position}(&|$)`));
  await expect(tokenDetails(page)).toContainText('|trainer − sampled| = 1.7000 nat (above the 1 nat threshold: W_LOGPROB_DRIFT)');
  await screenshot(page, testInfo, 'token-drift');

  // The finding's Show button goes to the same token in drift shading.
  await page.getByRole('radio', { name: 'Probability' }).check();
  await page.getByRole('button', { name: 'Show W_LOGPROB_DRIFT in segment 0' }).click();
  await expect(page.getByRole('radio', { name: 'Drift' })).toBeChecked();
  await expect(tokenAt(page, position)).toHaveAttribute('aria-selected', 'true');

  await page.getByRole('radio', { name: 'Probability' }).check();
  await expect(page).not.toHaveURL(/shade=/);
  await expect(tokenList(page).locator('[data-drift]')).toHaveCount(0);
});

test('a link with shade=drift opens the token view in drift shading', async ({ page }) => {
  // Position 492 is the first trained token of the article's training sequence (scrolled into view by tok=).
  await page.goto('/?rollout=r-article%23a-1&view=rollout&tab=tokens&seq=training&tok=492&shade=drift');
  await expect(page.getByRole('radio', { name: 'Drift' })).toBeChecked();
  await expect(page.getByRole('region', { name: 'Legend' })).toContainText('above 1 nat is W_LOGPROB_DRIFT');
  await expect(tokenAt(page, 492)).toHaveAttribute('data-drift', /^(over|under)$/);
});
