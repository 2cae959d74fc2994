import { expect, test } from '@playwright/test';
import { buildRollout, buildSegment, toJsonl } from '../src/testing/builders';
import { expectLoaded, openWithButton, screenshot } from './support/app';
import { payload } from './support/fixtures';
import { gotoSteps, stepRow, stepsList } from './support/steps';
import { tokenAt, tokenList } from './support/tokens';

test('the demo’s compacted context: the Steps row says why (compacted) with its span, and the token view marks it', async ({
  page,
}, testInfo) => {
  await gotoSteps(page, 'r-compacted#a-1', '&step=4');
  const row = stepRow(page, 4);
  const why = row.getByText(/^why:/);
  await expect(why).toContainText('why: compacted, tokens 519–595 of the earlier sequence, now tokens 519–522');
  await screenshot(page, testInfo, 'rewrite-class-steps');

  await why.getByRole('button', { name: 'show in tokens' }).click();
  await expect(page.getByRole('tab', { name: 'Tokens' })).toHaveAttribute('aria-selected', 'true');
  const note = page.getByRole('region', { name: 'Why this context was rewritten' });
  await expect(note).toContainText('Context rewritten: compacted');
  await expect(note).toContainText('In this context: tokens 519–522 (marked below)');
  await expect(note).toContainText('Removed: “def search(a, target):');
  await expect(note).toContainText('Now: “[output omitted]”');
  await expect(tokenAt(page, 519)).toHaveAttribute('aria-selected', 'true');
  // The four tokens of "[output omitted]" carry the mark; the ones either side do not.
  for (const pos of [519, 520, 521, 522]) await expect(tokenAt(page, pos)).toHaveAttribute('aria-label', /in the rewritten span/);
  for (const pos of [518, 523]) await expect(tokenAt(page, pos)).not.toHaveAttribute('aria-label', /in the rewritten span/);
  await screenshot(page, testInfo, 'rewrite-class-tokens');
});

/* Token strings in the record decode it without a tokenizer: "foo" + "bar" sampled, "foobar" in the next context. */
const retokenized = {
  name: 'retokenized.jsonl',
  text: toJsonl([
    buildRollout({
      rollout_id: 'r-retok',
      tokenizer: { name: 'test/words', version: '1' },
      segments: [
        buildSegment({
          input_ids: [1, 2],
          input_tokens: ['say', ' '],
          generated_ids: [7, 8],
          generated_tokens: ['foo', 'bar'],
          old_logprobs: [-1, -2],
        }),
        buildSegment({
          input_ids: [1, 2, 78, 5],
          input_tokens: ['say', ' ', 'foobar', '!'],
          generated_ids: [9],
          generated_tokens: ['.'],
          old_logprobs: [-1],
          tool_call_id: null,
        }),
      ],
    }),
  ]),
};

test('a retokenized context: the finding, the Steps row and the token view all say retokenized with the exact span', async ({
  page,
}, testInfo) => {
  await page.goto('/');
  await openWithButton(page, payload(retokenized));
  await expectLoaded(page, 1);
  await page.getByRole('row').filter({ hasText: 'r-retok' }).click();
  await page.getByRole('button', { name: 'Open inspector' }).click();
  // No steps recorded: the rows are the segments.
  const row = stepsList(page).getByRole('listitem', { name: 'Segment 1 (no step)' });
  await expect(row.getByText(/^why:/)).toContainText('why: retokenized, tokens 2–3 of the earlier sequence, now token 2');
  await row.getByRole('group').filter({ hasText: 'W_CONTEXT_REWRITTEN' }).getByText('W_CONTEXT_REWRITTEN').click();
  await expect(row).toContainText('retokenized: the text is unchanged but its token ids differ');
  await page.getByRole('tab', { name: 'Tokens' }).click();
  await page.getByRole('combobox', { name: 'Sequence' }).selectOption('1');
  const note = page.getByRole('region', { name: 'Why this context was rewritten' });
  await expect(note).toContainText('Context rewritten: retokenized');
  await expect(tokenList(page)).toBeVisible();
  await expect(tokenAt(page, 2)).toHaveAttribute('aria-label', /"foobar".*in the rewritten span/);
  await screenshot(page, testInfo, 'rewrite-class-retokenized');
});
