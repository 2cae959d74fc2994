import { expect, test } from '@playwright/test';
import { buildRollout, buildSegment, toJsonl } from '../src/testing/builders';
import { expectLoaded, openWithButton, screenshot } from './support/app';
import { payload } from './support/fixtures';
import { openTokens, tokenAt, tokenDetails } from './support/tokens';

// A two-turn rollout whose trainer also trains the prompt token "user" (position 1): E_TRAINING_MASK.
const PROMPT = ['<|im_start|>', 'user', '\n', 'Fix', ' the', ' bug', '<|im_end|>', '\n', '<|im_start|>', 'assistant', '\n'];
const CALL = ['<tool_call>', 'read', '_file', ' x', '</tool_call>'];
const OBSERVATION = ['\n', '<tool_response>', 'ok', '</tool_response>', '\n', '<|im_start|>', 'assistant', '\n'];
const ANSWER = ['done', '<|im_end|>'];
const ids = (from: number, tokens: string[]) => tokens.map((_, i) => from + i);

// " x" (position 14) was generated but is masked out of the loss.
const CALL_MASK: (0 | 1)[] = [1, 1, 1, 0, 1];
const first = buildSegment({
  input_ids: ids(1, PROMPT),
  input_tokens: PROMPT,
  generated_ids: ids(20, CALL),
  generated_tokens: CALL,
  old_logprobs: [-0.01, -2.3, -0.2, -0.7, -0.05],
  loss_mask: CALL_MASK,
  tool_call_id: 'c-1',
});
const context = [...first.input_ids, ...first.generated_ids, ...ids(30, OBSERVATION)];
const second = buildSegment({
  input_ids: context,
  generated_ids: ids(40, ANSWER),
  generated_tokens: ANSWER,
  old_logprobs: [-0.1, -0.02],
  tool_call_id: null,
});
// Observation tokens carry their text in the second segment's input_tokens.
second.input_tokens = [...PROMPT, ...CALL, ...OBSERVATION];
const sequence = [...context, ...second.generated_ids, 0, 0];
// The trainer's mask: the wrongly trained prompt token, the first call by its own mask, the answer.
const lossMask: (0 | 1)[] = [0, 1, ...Array<0>(9).fill(0), ...CALL_MASK, ...Array<0>(8).fill(0), 1, 1, 0, 0];

const file = {
  name: 'masks.jsonl',
  text: toJsonl([
    buildRollout({
      rollout_id: 'r-masks',
      // Not a tokenizer Trajscope bundles: text comes from the record alone, padding shows as ids.
      tokenizer: { name: 'test/words', version: '1' },
      segments: [first, second],
      training: { sequence_ids: sequence, loss_mask: lossMask },
    }),
  ]),
};

test('trained, masked, context and wrongly trained tokens carry distinct, labelled styles', async ({ page }, testInfo) => {
  await page.goto('/');
  await openWithButton(page, payload(file));
  await expectLoaded(page, 1);
  await openTokens(page, 'r-masks');

  // Training sequence by default: the trainer's view of every position.
  await expect(page.getByRole('combobox', { name: 'Sequence' })).toHaveValue('training');
  const roles: [number, string, RegExp][] = [
    [0, 'context', /"<\|im_start\|>", context$/],
    [1, 'wrongly-trained', /"user", wrongly trained$/],
    [11, 'trained', /"<tool_call>", trained$/],
    [14, 'masked', /" x", generated, masked$/],
    [17, 'context', /"<tool_response>", context$/],
    [24, 'trained', /"done", trained$/],
    [26, 'after', /id 0 \(no text\), after \/ padding$/],
  ];
  for (const [position, role, name] of roles) {
    await expect(tokenAt(page, position)).toHaveAttribute('data-role', role);
    await expect(tokenAt(page, position)).toHaveAccessibleName(name);
  }
  await expect(tokenAt(page, 26)).toHaveText('#0');
  await expect(page.getByText('2 tokens without text are shown as #id')).toBeVisible();

  // The legend names every style; the summary counts them; the finding explains the wrong one.
  const legend = page.getByRole('region', { name: 'Legend' });
  const styles: [string, string][] = [
    ['trained', 'trained (in the loss)'],
    ['masked', 'generated, masked (no loss)'],
    ['wrongly-trained', 'wrongly trained (in the loss, not generated)'],
    ['context', 'context: prompt, tool output (no loss)'],
    ['after', 'after / padding (no loss)'],
  ];
  for (const [role, label] of styles) {
    const item = legend.getByRole('listitem').filter({ has: page.getByText(label, { exact: true }) });
    await expect(item.locator('[data-role]')).toHaveAttribute('data-role', role);
  }
  await expect(page.getByRole('region', { name: 'Token summary' })).toContainText('28 tokens');
  await expect(page.getByRole('region', { name: 'Token summary' })).toContainText('6 trained');
  await expect(page.getByRole('region', { name: 'Token summary' })).toContainText('1 wrongly trained');
  const finding = page.getByRole('region', { name: 'Token findings' }).getByRole('listitem').filter({ hasText: 'E_TRAINING_MASK' });
  await expect(finding).toContainText('The training loss mask covers a token the model did not generate');
  await finding.getByRole('button', { name: /Show E_TRAINING_MASK/ }).click();
  await expect(page).toHaveURL(/[?&]tok=1(&|$)/);
  await expect(tokenAt(page, 1)).toHaveAttribute('aria-selected', 'true');

  // Hover spells out the one-position shift.
  await tokenAt(page, 12).hover();
  const details = tokenDetails(page);
  await expect(details).toContainText('Position 12');
  await expect(details).toContainText('Predicted by the logits at position 11 (token ‘<tool_call>’)');
  await expect(details).toContainText('−2.3000 (p = 0.100)');
  await screenshot(page, testInfo, 'token-masks');
  await tokenAt(page, 0).hover();
  await expect(details).toContainText('Predicted by nothing');

  // In the segment's own view the prompt is plain context, and the masked token is still masked.
  await page.getByRole('combobox', { name: 'Sequence' }).selectOption('0');
  await expect(tokenAt(page, 1)).toHaveAttribute('data-role', 'context');
  await expect(tokenAt(page, 14)).toHaveAttribute('data-role', 'masked');
  await expect(tokenAt(page, 15)).toHaveAttribute('data-role', 'trained');
  await screenshot(page, testInfo, 'token-masks-segment');
});
