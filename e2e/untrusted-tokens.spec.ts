import { expect, test } from '@playwright/test';
import { buildRollout, buildSegment, toJsonl } from '../src/testing/builders';
import { expectLoaded, openWithButton, screenshot } from './support/app';
import { payload } from './support/fixtures';
import { openTokens, tokenAt, tokenDetails, tokenList } from './support/tokens';

const IMG = '<img src=x onerror="window.__xss=1">';
const SCRIPT = '<script>window.__xss=2</script>';
const SVG = '<svg/onload=window.__xss=3>';

const file = {
  name: 'hostile-tokens.jsonl',
  text: toJsonl([
    buildRollout({
      rollout_id: 'r-hostile',
      tokenizer: { name: 'test/words', version: '1' },
      segments: [
        buildSegment({
          input_ids: [1, 2, 3],
          input_tokens: ['<|im_start|>', SCRIPT, '\n'],
          generated_ids: [4, 5],
          generated_tokens: [IMG, SVG],
          old_logprobs: [-0.5, -0.1],
        }),
      ],
    }),
  ]),
};

test('markup in input_tokens and generated_tokens is shown as literal text and never runs', async ({ page }, testInfo) => {
  await page.goto('/');
  await openWithButton(page, payload(file));
  await expectLoaded(page, 1);
  await openTokens(page, 'r-hostile');

  // A chip shows the first 17 characters of a longer token and … (layout.ts chipText), as literal text;
  // its accessible name and the details hold the whole token.
  await expect(tokenAt(page, 1)).toHaveText('<script>window.__…');
  await expect(tokenAt(page, 1)).toHaveAccessibleName(`position 1: "${SCRIPT}", context`);
  // Spaces show as · in a chip; the details show the text exactly.
  await expect(tokenAt(page, 3)).toHaveText('<img·src=x·onerro…');
  await expect(tokenAt(page, 4)).toHaveText('<svg/onload=windo…');
  expect(await tokenAt(page, 4).getAttribute('aria-label')).toContain(`"${SVG}"`);
  await tokenAt(page, 3).click();
  await expect(tokenDetails(page).getByText(IMG, { exact: true })).toBeVisible();
  await tokenAt(page, 4).hover();
  await expect(tokenDetails(page)).toContainText(`Predicted by the logits at position 3 (token ‘${IMG.replaceAll(' ', '·')}’)`);
  await screenshot(page, testInfo, 'untrusted-tokens');

  expect(await page.evaluate(() => Reflect.get(window, '__xss'))).toBeUndefined();
  for (const part of [tokenList(page), tokenDetails(page)]) {
    expect(await part.evaluate((el) => el.querySelectorAll('img, script, svg').length)).toBe(0);
  }
  expect(await page.evaluate(() => document.querySelectorAll('main img, main script').length)).toBe(0);
});
