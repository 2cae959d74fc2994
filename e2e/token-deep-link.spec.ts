import { expect, test } from '@playwright/test';
import { buildRollout, buildSegment, toJsonl } from '../src/testing/builders';
import { screenshot } from './support/app';
import { tokenAt, tokenDetails } from './support/tokens';

// Two segments, the first with a context long enough that position 2,500 starts far below the fold.
const words = Array.from({ length: 3000 }, (_, i) => (i % 16 === 15 ? '\n' : ` w${i}`));
const first = buildSegment({
  input_ids: words.map((_, i) => 1000 + i),
  input_tokens: words,
  generated_ids: [1, 2],
  generated_tokens: ['<tool_call>', '</tool_call>'],
  old_logprobs: [-0.1, -0.2],
});
const second = buildSegment({
  input_ids: [5, 6],
  input_tokens: ['a', 'b'],
  generated_ids: [7],
  generated_tokens: ['c'],
  old_logprobs: [-1],
});
const FIXTURE = toJsonl([
  buildRollout({ rollout_id: 'r-long', tokenizer: { name: 'test/words', version: '1' }, segments: [first, second] }),
]);

test.beforeEach(async ({ page }) => {
  await page.route(
    (url) => url.pathname === '/fixtures/long.jsonl',
    (route) => route.fulfill({ status: 200, contentType: 'application/x-ndjson', body: FIXTURE }),
  );
});

test('a link with seq and tok reopens with that token selected and scrolled into view', async ({ page }, testInfo) => {
  await page.goto('/?src=/fixtures/long.jsonl&rollout=r-long%23a-1&view=rollout&tab=tokens&seq=0&tok=2500');

  await expect(page.getByRole('combobox', { name: 'Sequence' })).toHaveValue('0');
  const token = tokenAt(page, 2500);
  await expect(token).toHaveAttribute('aria-selected', 'true');
  await expect(token).toBeInViewport();
  await expect(token).toHaveText('·w2500');
  await expect(tokenDetails(page)).toContainText('Position 2500');
  await expect(tokenDetails(page)).toContainText('Selected token');
  await screenshot(page, testInfo, 'token-deep-link');

  // Selecting another token rewrites the link; a reload keeps it.
  await tokenAt(page, 2502).click();
  await expect(page).toHaveURL(/[?&]tok=2502(&|$)/);
  await page.reload();
  await expect(tokenAt(page, 2502)).toHaveAttribute('aria-selected', 'true');
  await expect(tokenAt(page, 2502)).toBeInViewport();

  // Keys move the selection and keep it in view.
  await page.getByRole('listbox', { name: 'Tokens' }).focus();
  await page.keyboard.press('ArrowRight');
  await expect(page).toHaveURL(/[?&]tok=2503(&|$)/);
  await page.keyboard.press('End');
  await expect(page).toHaveURL(/[?&]tok=3001(&|$)/);
  await expect(tokenAt(page, 3001)).toBeInViewport();
  await expect(tokenAt(page, 3001)).toHaveAttribute('data-role', 'trained');
});

// Issue 25: a long sequence is measured from its start to a little past the token a link selects before
// the first paint, and whole after it. Both ends must hold: the linked token in view at once, and the rest of
// the sequence reachable once measured.
const LONG = 20_000;
const longWords = Array.from({ length: LONG }, (_, i) => (i % 16 === 15 ? '\n' : ` v${i}`));
const LONGER = toJsonl([
  buildRollout({
    rollout_id: 'r-longer',
    tokenizer: { name: 'test/words', version: '1' },
    segments: [
      buildSegment({
        input_ids: longWords.map((_, i) => 100_000 + i),
        input_tokens: longWords,
        generated_ids: [1],
        generated_tokens: ['END'],
        old_logprobs: [-0.5],
      }),
    ],
  }),
]);

test('a link to a token deep in a long sequence shows it at once, and the whole sequence after', async ({ page }, testInfo) => {
  await page.route(
    (url) => url.pathname === '/fixtures/longer.jsonl',
    (route) => route.fulfill({ status: 200, contentType: 'application/x-ndjson', body: LONGER }),
  );
  await page.goto('/?src=/fixtures/longer.jsonl&rollout=r-longer%23a-1&view=rollout&tab=tokens&seq=0&tok=15000');
  const token = tokenAt(page, 15000);
  await expect(token).toHaveAttribute('aria-selected', 'true');
  await expect(token).toBeInViewport();
  await expect(token).toHaveText('·v15000');
  await screenshot(page, testInfo, 'token-deep-link-long');

  // Past what was measured first (15,000 + 4,096): the last token, once the rest is measured.
  await page.getByRole('listbox', { name: 'Tokens' }).evaluate((el) => el.scrollTo({ top: el.scrollHeight }));
  await expect(tokenAt(page, LONG)).toBeInViewport();
  await expect(tokenAt(page, LONG)).toHaveText('END');
  // And the rows before the linked one.
  await page.getByRole('listbox', { name: 'Tokens' }).evaluate((el) => el.scrollTo({ top: 0 }));
  await expect(tokenAt(page, 0)).toBeInViewport();
});
