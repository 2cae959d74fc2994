import type { ChildProcess } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, type Page, test } from '@playwright/test';
import { writeTable } from '../src/cli/regrade/table';
import type { RegradeRow } from '../src/format';
import { screenshot } from './support/app';
import { startView } from './support/view';

/*
 * Issue 27, item 2: a regrade's flips and their effect on the page. The lenient demo grader
 * (scripts/demo-grader-lenient.mjs) passes r-g1-02 and r-g1-07, whose patches hang on a private test; the
 * journal here is built from the committed demo records with exactly those two flips (no grader runs).
 */

const DEMO = fileURLToPath(new URL('../public/demo/rollouts.jsonl', import.meta.url));
const FLIPPED = ['r-g1-02', 'r-g1-07'];
const GRADER = 'node scripts/demo-grader-lenient.mjs';

interface DemoRecord {
  rollout_id: string;
  attempt_id?: string;
  task_id: string;
  reward: number | null;
  grading?: { verdict?: string; artifact?: string };
}

/** One row per demo record: its stored verdict again, but pass for the two flipped; no artifact is an error, as regrade says. */
function lenientRows(): RegradeRow[] {
  return readFileSync(DEMO, 'utf8')
    .split('\n')
    .flatMap((text, i) => (text.trim() === '' ? [] : [{ r: JSON.parse(text) as DemoRecord, line: i + 1 }]))
    .map(({ r, line }) => {
      const flipped = FLIPPED.includes(r.rollout_id);
      const graded = r.grading?.artifact !== undefined;
      return {
        file: 'public/demo/rollouts.jsonl',
        line,
        rollout_id: r.rollout_id,
        attempt_id: r.attempt_id ?? null,
        task_id: r.task_id,
        old_reward: r.reward,
        old_verdict: r.grading?.verdict ?? null,
        new_reward: graded ? (flipped ? 1 : r.reward) : null,
        new_verdict: graded ? (flipped ? 'pass' : (r.grading?.verdict ?? null)) : null,
        error_kind: graded ? null : 'no_artifact',
        error: graded ? null : 'no artifact stored',
        details: null,
        duration_ms: 5,
        grader: GRADER,
      };
    });
}

const flipsTable = (page: Page) => page.getByRole('table', { name: 'Flipped rollouts' });
const flipRow = (page: Page, id: string) => flipsTable(page).getByRole('row').filter({ hasText: id });

/**
 * Group g1 (rewards 0 0 0 1 1 1 0 1) becomes 0 1 0 1 1 1 1 1: mean 0.5 → 0.75, sample std 0.534522 → 0.462910,
 * so a flipped rollout's GRPO advantage goes from -0.5 / 0.534522 = -0.935 to 0.25 / 0.462910 = 0.540.
 */
async function expectTheTwoFlips(page: Page) {
  await expect(flipsTable(page).getByRole('row')).toHaveCount(1 + FLIPPED.length);
  for (const id of FLIPPED) {
    await expect(flipRow(page, id)).toContainText('fail · 0.0 → pass · 1.0');
    await expect(flipRow(page, id)).toContainText('-0.935 → 0.540');
  }
  const failToPass = page
    .getByLabel('Regrade summary')
    .locator('div')
    .filter({ has: page.getByText('fail → pass', { exact: true }) });
  await expect(failToPass.getByRole('definition')).toHaveText(String(FLIPPED.length));
  const groups = page.getByRole('table', { name: 'Groups whose statistics changed' });
  await expect(groups.getByRole('row').filter({ hasText: 'g1:binary-search-001@v-1' })).toContainText('0.5 → 0.75');
  await expect(groups.getByRole('row').filter({ hasText: 'g1:binary-search-001@v-1' })).toContainText('0.5345 → 0.4629');
}

test('a regrade journal opened on the Regrade page shows the two flips and their changed advantages', async ({ page }, testInfo) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto('/');
  await page.getByRole('navigation', { name: 'Pages' }).getByRole('button', { name: 'Regrade' }).click();
  await expect(page.getByRole('heading', { name: 'No regrade here yet' })).toBeVisible();
  const journal = `${lenientRows()
    .map((r) => JSON.stringify(r))
    .join('\n')}\n`;
  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: 'Open a regrade table…' }).click();
  await (await chooser).setFiles({ name: 'regrade.journal', mimeType: 'application/x-ndjson', buffer: Buffer.from(journal) });

  await expectTheTwoFlips(page);
  // The page names its file rollouts.jsonl, the regrade public/demo/rollouts.jsonl: every row matched by key.
  await expect(page.getByText(/44 of the table’s 44 rows for this grader matched a loaded rollout/)).toBeVisible();
  await screenshot(page, testInfo, 'regrade-flips');

  // Dr. GRPO: r - mean, -0.5 → 0.25.
  await page.getByRole('button', { name: 'Dr. GRPO' }).click();
  await expect(flipRow(page, 'r-g1-02')).toContainText('-0.500 → 0.250');

  // A flip's key opens the rollout; Back returns to the page, the table still open.
  await flipRow(page, 'r-g1-07')
    .getByRole('button', { name: /r-g1-07/ })
    .click();
  expect(new URL(page.url()).searchParams.get('rollout')).toBe('r-g1-07#a-1');
  await page.goBack();
  await expect(flipRow(page, 'r-g1-07')).toContainText('fail · 0.0 → pass · 1.0');
});

test('`trajscope view DIR` finds DIR/.trajscope/regrade/regrade.parquet by itself', async ({ browser }) => {
  test.setTimeout(180_000);
  const dir = join(mkdtempSync(join(tmpdir(), 'trajscope-e2e-regrade-')), 'run');
  mkdirSync(join(dir, '.trajscope', 'regrade'), { recursive: true });
  copyFileSync(DEMO, join(dir, 'rollouts.jsonl'));
  await writeTable(join(dir, '.trajscope', 'regrade'), lenientRows());

  let server: ChildProcess | undefined;
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  try {
    const base = await startView([dir], (child) => {
      server = child;
    });
    const page = await context.newPage();
    await page.goto(base);
    await page.getByRole('navigation', { name: 'Pages' }).getByRole('button', { name: 'Regrade' }).click();
    await expect(page.getByText('.trajscope/regrade/regrade.parquet')).toBeVisible({ timeout: 60_000 });
    await expectTheTwoFlips(page);
  } finally {
    await context.close();
    server?.kill();
  }
});
