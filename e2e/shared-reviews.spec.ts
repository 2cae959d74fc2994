import type { ChildProcess } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, type Page, test } from '@playwright/test';
import { screenshot } from './support/app';
import { review, reviewProgress } from './support/reviews';
import { startView } from './support/view';

/*
 * Issue 27, item 4: under `trajscope view DIR` reviews are kept in the run (DIR/.trajscope/reviews.jsonl).
 * Two browsers (two contexts: no IndexedDB, no BroadcastChannel in common) review the same run through one
 * server; each sees the other's review at once, through the server's event, and again after a reload.
 */

const DEMO = fileURLToPath(new URL('../public/demo/rollouts.jsonl', import.meta.url));
const audit = (key: string) => `?rollout=${encodeURIComponent(key)}&view=rollout&tab=audit`;

async function ready(page: Page, reviewed: number): Promise<void> {
  // Two browsers load and digest a 1.7 MB file at once on a shared machine: wait longer.
  await expect(reviewProgress(page)).toHaveText(`${reviewed} of 44 reviewed`, { timeout: 60_000 });
  await expect(review(page).getByRole('button', { name: /Agree/ })).toBeEnabled({ timeout: 30_000 });
}

test('two browsers reviewing one run through one view server each see every review of the other', async ({ browser }, testInfo) => {
  test.setTimeout(240_000);
  const dir = join(mkdtempSync(join(tmpdir(), 'trajscope-e2e-shared-reviews-')), 'run');
  mkdirSync(dir);
  copyFileSync(DEMO, join(dir, 'rollouts.jsonl'));
  let server: ChildProcess | undefined;
  const alice = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const bob = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  try {
    const base = await startView([dir], (child) => {
      server = child;
    });
    const a = await alice.newPage();
    const b = await bob.newPage();
    await a.goto(`${base}${audit('r-article#a-1')}`);
    await b.goto(`${base}${audit('r-regression#a-1')}`);
    for (const [page, name] of [
      [a, 'alice'],
      [b, 'bob'],
    ] as const) {
      await ready(page, 0);
      await expect(review(page).getByText('Kept in the run (.trajscope/reviews.jsonl)', { exact: false })).toBeVisible();
      await review(page).getByRole('textbox', { name: 'Reviewer' }).fill(name);
    }

    // Alice agrees with rollout X, Bob disagrees with rollout Y, at about the same time.
    await Promise.all([
      review(a).getByRole('button', { name: /Agree/ }).click(),
      review(b)
        .getByRole('button', { name: /Disagree/ })
        .click(),
    ]);
    await expect(review(a).getByRole('button', { name: /Agree/ })).toHaveAttribute('aria-pressed', 'true');
    await expect(review(b).getByRole('button', { name: /Disagree/ })).toHaveAttribute('aria-pressed', 'true');

    // Without a reload, each page counts both reviews, and Alice's lists Bob's disagreement.
    await expect(reviewProgress(a)).toHaveText('2 of 44 reviewed', { timeout: 10_000 });
    await expect(reviewProgress(b)).toHaveText('2 of 44 reviewed', { timeout: 10_000 });
    await expect(review(a).getByRole('button', { name: 'r-regression · a-1' })).toBeVisible();
    await screenshot(a, testInfo, 'shared-reviews-alice');

    // After a reload, the same: the reviews are the run's, not the page's.
    await Promise.all([a.reload(), b.reload()]);
    await ready(a, 2);
    await ready(b, 2);
    await expect(review(a).getByRole('button', { name: /Agree/ })).toHaveAttribute('aria-pressed', 'true');
    await expect(review(b).getByRole('button', { name: /Disagree/ })).toHaveAttribute('aria-pressed', 'true');

    // Bob opens rollout X: Alice's review, with her name.
    await b.goto(`${base}${audit('r-article#a-1')}`);
    await ready(b, 2);
    await expect(review(b).getByRole('status').filter({ hasText: 'agree · saved' })).toContainText('by alice');
    await screenshot(b, testInfo, 'shared-reviews-bob');

    // On disk: one line per review, each a whole entry naming its reviewer and the file's digest.
    const lines = readFileSync(join(dir, '.trajscope', 'reviews.jsonl'), 'utf8')
      .trimEnd()
      .split('\n');
    const entries = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(entries.map((e) => [e.op, e.rollout_id, e.verdict, e.reviewer]).sort()).toEqual([
      ['put', 'r-article', 'agree', 'alice'],
      ['put', 'r-regression', 'disagree', 'bob'],
    ]);
    expect(new Set(entries.map((e) => e.digest)).size).toBe(1);
    expect(String(entries[0]?.digest)).toMatch(/^sha256:[0-9a-f]{64}$/);
  } finally {
    server?.kill('SIGTERM');
    await alice.close();
    await bob.close();
  }
});
