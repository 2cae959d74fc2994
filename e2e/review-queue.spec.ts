import type { ChildProcess } from 'node:child_process';
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, type Page, test } from '@playwright/test';
import { screenshot } from './support/app';
import { startView } from './support/view';

/*
 * Issue 27, item 5: a review queue made by `trajscope queue RUN` is held in the run and shown by
 * `trajscope view RUN` on its Queue page. Reviewer A says who they are and reviews two items with the
 * keyboard alone; the progress shows it, and the reviews are in the run's shared log, signed A.
 */

const DEMO = fileURLToPath(new URL('../public/demo/rollouts.jsonl', import.meta.url));
const BIN = fileURLToPath(new URL('../bin/trajscope.mjs', import.meta.url));

interface QueueFile {
  items: { rollout_id: string; reason: string; reviewers: string[] }[];
}

/** The progress table's row of a reviewer (`A`, or `A (you)` for the one reviewing). */
const progressOf = (page: Page, reviewer: string) =>
  page
    .getByRole('table')
    .getByRole('row')
    .filter({ has: page.getByRole('rowheader', { name: new RegExp(`^${reviewer}( \\(you\\))?$`) }) });

test('reviewer A reviews two queue items by keyboard alone, and the progress counts them', async ({ browser }, testInfo) => {
  test.setTimeout(180_000);
  const dir = join(mkdtempSync(join(tmpdir(), 'trajscope-e2e-queue-')), 'run');
  mkdirSync(dir);
  copyFileSync(DEMO, join(dir, 'rollouts.jsonl'));
  execFileSync(process.execPath, [BIN, 'queue', dir, '--reviewers', 'A,B', '--size', '8', '--rules', 'default', '--seed', '5'], {
    stdio: 'pipe',
  });
  const queue = JSON.parse(readFileSync(join(dir, '.trajscope', 'review-queue.json'), 'utf8')) as QueueFile;
  const mine = queue.items.filter((i) => i.reviewers.includes('A'));
  expect(mine.length).toBe(4);

  let server: ChildProcess | undefined;
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  try {
    const base = await startView([dir], (child) => {
      server = child;
    });
    const page = await context.newPage();
    await page.goto(base);
    await page.getByRole('navigation', { name: 'Pages' }).getByRole('button', { name: 'Queue' }).click();
    await expect(page.getByRole('heading', { name: 'Who are you?' })).toBeVisible({ timeout: 30_000 });
    await expect(progressOf(page, 'A')).toContainText(`0 / ${mine.length}`);

    // Keyboard only from here: 1 picks A, a / d mark, j moves on.
    await page.keyboard.press('1');
    const current = page.getByRole('region', { name: 'Current item' });
    await expect(current.getByRole('button', { name: /Agree/ })).toBeEnabled({ timeout: 60_000 });
    await expect(page.getByRole('listbox', { name: 'Your items' }).getByRole('option')).toHaveCount(mine.length);
    await expect(current.getByRole('heading')).toContainText(`1 of ${mine.length}: ${mine[0]?.rollout_id}`);

    await page.keyboard.press('a');
    await expect(current.getByRole('button', { name: /Agree/ })).toHaveAttribute('aria-pressed', 'true');
    await page.keyboard.press('j');
    await expect(current.getByRole('heading')).toContainText(`2 of ${mine.length}: ${mine[1]?.rollout_id}`);
    await page.keyboard.press('e');
    // Typed into the note, a and d are letters, not verdicts.
    await page.keyboard.type('the grader passed a failing run');
    await expect(current.locator('[aria-pressed="true"]')).toHaveCount(0);
    await page.keyboard.press('Escape');
    await page.keyboard.press('d');
    await expect(current.getByRole('button', { name: /Disagree/ })).toHaveAttribute('aria-pressed', 'true');

    await expect(progressOf(page, 'A')).toContainText(`2 / ${mine.length}`);
    await expect(progressOf(page, 'B')).toContainText(`0 / ${queue.items.length - mine.length}`);
    const options = page.getByRole('listbox', { name: 'Your items' }).getByRole('option');
    await expect(options.nth(0)).toContainText('agree');
    await expect(options.nth(1)).toContainText('disagree');
    await screenshot(page, testInfo, 'review-queue-a');

    // n: the next of A's items not reviewed (the third); Enter opens it on its Grader audit tab, Back returns to it.
    await page.keyboard.press('n');
    await expect(current.getByRole('heading')).toContainText(`3 of ${mine.length}: ${mine[2]?.rollout_id}`);
    await page.keyboard.press('Enter');
    await expect(page.getByRole('region', { name: 'Review' })).toBeVisible();
    expect(new URL(page.url()).searchParams.get('tab')).toBe('audit');
    await page.goBack();
    await expect(current.getByRole('heading')).toContainText(`3 of ${mine.length}`);

    // In the run's shared log: A's two reviews, the note with the disagreement.
    const entries = readFileSync(join(dir, '.trajscope', 'reviews.jsonl'), 'utf8')
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(entries.map((e) => [e.rollout_id, e.verdict, e.reviewer, e.note])).toEqual([
      [mine[0]?.rollout_id, 'agree', 'A', ''],
      [mine[1]?.rollout_id, 'disagree', 'A', 'the grader passed a failing run'],
    ]);
  } finally {
    server?.kill('SIGTERM');
    await context.close();
  }
});
