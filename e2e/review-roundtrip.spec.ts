import { readFileSync } from 'node:fs';
import { expect, type Page, test } from '@playwright/test';
import { screenshot } from './support/app';
import { expectReviewsReady, review, reviewProgress } from './support/reviews';

async function noteOf(page: Page, text: string): Promise<void> {
  const note = review(page).getByRole('textbox', { name: 'Note' });
  await note.fill(text);
  // Esc leaves the note, which saves it, and gives the keys back to a / d / u and j / k.
  await note.press('Escape');
}

test('reviews marked with keys and notes survive a reload, export as JSONL, and import back after clearing', async ({ page }, testInfo) => {
  await page.goto('/?rollout=r-article%23a-1&view=rollout&tab=audit');
  await expectReviewsReady(page, 44);

  const reviewer = review(page).getByRole('textbox', { name: 'Reviewer' });
  await reviewer.fill('Mei');
  await reviewer.blur();

  await page.keyboard.press('a');
  await expect(review(page).getByRole('button', { name: /Agree/ })).toHaveAttribute('aria-pressed', 'true');
  await noteOf(page, 'Both bounds fixed; private tests agree.');
  await expect(review(page)).toContainText('agree · saved');
  await expect(review(page)).toContainText('by Mei');

  // Typing a, d or u in the note is text, not a mark.
  await page.keyboard.press('j');
  await expect(page.getByRole('heading', { name: /r-regression/ })).toBeVisible();
  await review(page).getByRole('textbox', { name: 'Note' }).fill('a d u');
  await expect(review(page).getByRole('button', { name: /Disagree/ })).toHaveAttribute('aria-pressed', 'false');
  await review(page).getByRole('textbox', { name: 'Note' }).press('Escape');
  await page.keyboard.press('d');
  await noteOf(page, 'Reward 1 after a revert: check the grader saw the final state.');
  await page.keyboard.press('j');
  await expect(page.getByRole('heading', { name: /r-budget/ })).toBeVisible();
  await page.keyboard.press('u');
  await expect(reviewProgress(page)).toContainText('3 of 44 reviewed');
  // The mark shows at once and is kept a moment later: the panel says "saved" only then (a reload
  // before it, as this test once did under load, lost the mark).
  await expect(review(page)).toContainText('unsure · saved');

  await page.reload();
  await expectReviewsReady(page, 44, 3);
  await expect(review(page).getByRole('button', { name: /Unsure/ })).toHaveAttribute('aria-pressed', 'true');
  await expect(review(page).getByRole('textbox', { name: 'Reviewer' })).toHaveValue('Mei');
  await page.keyboard.press('k');
  await page.keyboard.press('k');
  await expect(page.getByRole('heading', { name: /r-article/ })).toBeVisible();
  await expect(review(page).getByRole('button', { name: /Agree/ })).toHaveAttribute('aria-pressed', 'true');
  await expect(review(page).getByRole('textbox', { name: 'Note' })).toHaveValue('Both bounds fixed; private tests agree.');
  await screenshot(page, testInfo, 'review-after-reload');

  const downloading = page.waitForEvent('download');
  await review(page).getByRole('button', { name: 'Export reviews (JSONL)' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe('rollouts.reviews.jsonl');
  const exported = readFileSync((await download.path()) ?? '', 'utf8');
  const lines = exported
    .trimEnd()
    .split('\n')
    .map((l) => JSON.parse(l));
  expect(lines.map((l) => [l.rollout_id, l.attempt_id, l.verdict, l.reviewer])).toEqual([
    ['r-article', 'a-1', 'agree', 'Mei'],
    ['r-regression', 'a-1', 'disagree', 'Mei'],
    ['r-budget', 'a-1', 'unsure', 'Mei'],
  ]);
  expect(Object.keys(lines[0])).toEqual(['rollout_id', 'attempt_id', 'verdict', 'note', 'reviewer', 'timestamp']);
  expect(lines[1].note).toBe('Reward 1 after a revert: check the grader saw the final state.');

  await review(page).getByRole('button', { name: 'Clear reviews…' }).click();
  await review(page).getByRole('button', { name: 'Delete' }).click();
  await expect(reviewProgress(page)).toContainText('0 of 44 reviewed');
  await expect(review(page).getByRole('button', { name: /Agree/ })).toHaveAttribute('aria-pressed', 'false');

  // The file comes back with two lines that cannot be used: line 4 is broken, line 5 names no loaded rollout.
  const upload = `${exported}{"rollout_id": "r-article", \n${JSON.stringify({ ...lines[0], rollout_id: 'r-nope' })}\n`;
  const choosing = page.waitForEvent('filechooser');
  await review(page).getByRole('button', { name: 'Import reviews…' }).click();
  await (await choosing).setFiles({ name: 'rollouts.reviews.jsonl', mimeType: 'application/x-ndjson', buffer: Buffer.from(upload) });

  const result = review(page).getByRole('status', { name: 'Import result' });
  await expect(result).toContainText('Imported 3 reviews from rollouts.reviews.jsonl');
  await expect(result).toContainText('2 lines skipped');
  await expect(result.getByRole('listitem')).toHaveText([/^line 4: not valid JSON/, 'line 5: no rollout r-nope · a-1 in the loaded data']);
  await expect(reviewProgress(page)).toContainText('3 of 44 reviewed');
  await expect(review(page).getByRole('button', { name: /Agree/ })).toHaveAttribute('aria-pressed', 'true');
  await expect(review(page).getByRole('textbox', { name: 'Note' })).toHaveValue('Both bounds fixed; private tests agree.');
  await screenshot(page, testInfo, 'review-import');
});
