import { expect, test } from '@playwright/test';
import { buildRollout, buildSegment, toJsonl } from '../src/testing/builders';
import { expectLoaded, openWithButton, screenshot } from './support/app';
import { openTokens, tokenAt, tokenList } from './support/tokens';

/** The size this guard is stated at: the token view must stay virtualized well past it. */
const TOKENS = 100_000;
const GENERATED = 10_000;
/** The DOM budget: rows in view × chips per row stays far below this whatever the sequence length. */
const MAX_CHIPS = 2_000;

function largeRollout(): string {
  const context = TOKENS - GENERATED;
  const piece = (i: number) => (i === TOKENS - 1 ? 'END' : i % 24 === 23 ? '\n' : i % 3 === 0 ? ` w${i % 1000}` : '_x');
  const texts = Array.from({ length: TOKENS }, (_, i) => piece(i));
  // One id per distinct text, as a tokenizer would give.
  const vocabulary = new Map<string, number>();
  const ids = texts.map((t) => vocabulary.get(t) ?? vocabulary.set(t, vocabulary.size + 1).get(t) ?? 0);
  const segment = buildSegment({
    input_ids: ids.slice(0, context),
    input_tokens: texts.slice(0, context),
    generated_ids: ids.slice(context),
    generated_tokens: texts.slice(context),
    old_logprobs: Array.from({ length: GENERATED }, (_, i) => -((i % 7) / 3)),
  });
  return toJsonl([
    buildRollout({
      rollout_id: 'r-huge',
      tokenizer: { name: 'test/words', version: '1' },
      sampling: { temperature: 1, top_p: 1, max_new_tokens: 20_000 },
      segments: [segment],
      training: { sequence_ids: ids, loss_mask: ids.map((_, i) => (i >= context ? 1 : 0)) },
    }),
  ]);
}

test(`a ${TOKENS.toLocaleString('en-US')}-token sequence keeps only the chips in view in the page`, async ({ page }, testInfo) => {
  test.setTimeout(60_000);
  await page.goto('/');
  await openWithButton(page, { name: 'huge.jsonl', mimeType: 'application/x-ndjson', buffer: Buffer.from(largeRollout()) });
  await expectLoaded(page, 1, 20_000);
  await openTokens(page, 'r-huge');

  const chips = tokenList(page).getByRole('option');
  await expect(page.getByRole('region', { name: 'Token summary' })).toContainText('100,000 tokens');
  await expect(tokenAt(page, 0)).toBeVisible();
  expect(await chips.count()).toBeLessThan(MAX_CHIPS);

  // Scroll the way a wheel does, in steps, then all the way down.
  const list = tokenList(page);
  await list.hover();
  for (let i = 0; i < 10; i++) await page.mouse.wheel(0, 4000);
  expect(await chips.count()).toBeLessThan(MAX_CHIPS);
  await list.evaluate((el) => el.scrollTo({ top: el.scrollHeight }));
  const last = tokenAt(page, TOKENS - 1);
  await expect(last).toBeVisible();
  await expect(last).toHaveText('END');
  await expect(last).toHaveAttribute('data-role', 'trained');
  expect(await chips.count()).toBeLessThan(MAX_CHIPS);
  await screenshot(page, testInfo, 'token-large');

  // Home and End jump across the whole sequence.
  await list.focus();
  await page.keyboard.press('Home');
  await expect(tokenAt(page, 0)).toBeInViewport();
  await page.keyboard.press('End');
  await expect(last).toHaveAttribute('aria-selected', 'true');
  await expect(last).toBeInViewport();
});
