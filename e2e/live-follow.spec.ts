import type { ChildProcess } from 'node:child_process';
import { appendFileSync, mkdtempSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from '@playwright/test';
import { buildRollout } from '../src/testing/builders';
import { expectLoaded, problemsPanel, rolloutRows, screenshot } from './support/app';
import { startView as startViewServer } from './support/view';

/*
 * `trajscope view` end to end: the real server (a subprocess serving the built app in dist/), a real
 * directory that a "trainer" appends to, and the browser following it without a reload.
 */
const line = (id: string, reward = 1) => `${JSON.stringify(buildRollout({ rollout_id: id, reward }))}\n`;

let server: ChildProcess | null = null;
test.afterEach(() => {
  server?.kill('SIGTERM');
  server = null;
});

const startView = (paths: string[]) =>
  startViewServer(paths, (child) => {
    server = child;
  });

test('appended rollouts appear within 2 s; a half-written line is held back until complete', async ({ page }, testInfo) => {
  const dir = mkdtempSync(join(tmpdir(), 'trajscope-live-'));
  const file = join(dir, 'train.jsonl');
  writeFileSync(file, line('r-1') + line('r-2', 0));
  const url = await startView([dir]);
  await page.goto(url);
  await expectLoaded(page, 2);
  await expect(page.getByText('Live · 1 served file')).toBeVisible();

  appendFileSync(file, line('r-3'));
  await expect(rolloutRows(page).filter({ hasText: 'r-3' })).toHaveCount(1, { timeout: 2000 });

  const next = line('r-4');
  appendFileSync(file, next.slice(0, 40));
  await expect(page.getByText('waiting for 1 line')).toBeVisible({ timeout: 2000 });
  await expectLoaded(page, 3);
  await expect(problemsPanel(page)).toContainText('every line loaded');
  await screenshot(page, testInfo, 'live-follow-waiting');

  appendFileSync(file, next.slice(40));
  await expect(rolloutRows(page).filter({ hasText: 'r-4' })).toHaveCount(1, { timeout: 2000 });
  await expect(page.getByText('waiting for 1 line')).toHaveCount(0);
  await expectLoaded(page, 4);
  await screenshot(page, testInfo, 'live-follow');
});

test('a new file in the directory, and a replaced file, are picked up', async ({ page }) => {
  const dir = mkdtempSync(join(tmpdir(), 'trajscope-live-'));
  writeFileSync(join(dir, 'a.jsonl'), line('first-1'));
  // --files: followed as a list of files (without it, a second file makes the directory a run page).
  const url = await startView([dir, '--files']);
  await page.goto(url);
  await expectLoaded(page, 1);

  writeFileSync(join(dir, 'b.jsonl'), line('b-1') + line('b-2'));
  await expectLoaded(page, 3, 4000);
  await expect(page.getByText('Live · 2 served files')).toBeVisible();

  // Replace a.jsonl atomically (write elsewhere, rename over it), as log rotation does.
  writeFileSync(join(dir, 'tmp.part'), line('a-new-1') + line('a-new-2') + line('a-new-3'));
  renameSync(join(dir, 'tmp.part'), join(dir, 'a.jsonl'));
  await expect(rolloutRows(page).filter({ hasText: 'a-new-3' })).toHaveCount(1, { timeout: 4000 });
  await expect(rolloutRows(page).filter({ hasText: 'first-1' })).toHaveCount(0);
  await expectLoaded(page, 5);
});

test('a served file whose last line has no newline shows that rollout, and its newline arriving later adds nothing', async ({ page }) => {
  // Found by comparing the app with `lint`: the last rollout was held back for ever and group means differed.
  const dir = mkdtempSync(join(tmpdir(), 'trajscope-live-'));
  const file = join(dir, 'ends.jsonl');
  writeFileSync(file, line('r-1') + line('r-2', 0).trimEnd());
  const url = await startView([dir]);
  await page.goto(url);
  await expectLoaded(page, 2);
  await expect(page.getByText('waiting for 1 line')).toHaveCount(0);

  appendFileSync(file, `\n${line('r-3')}`);
  await expect(rolloutRows(page).filter({ hasText: 'r-3' })).toHaveCount(1, { timeout: 2000 });
  await expectLoaded(page, 3);
  await expect(problemsPanel(page)).toContainText('every line loaded');
  await expect(page.getByRole('region', { name: 'Summary' })).toContainText('3 lines');
});

test('the app works under the view server’s strict CSP: workers, the Qwen3 tokenizer, highlighting, no violations', async ({
  page,
}, testInfo) => {
  const violations: string[] = [];
  page.on('console', (m) => {
    if (/Content Security Policy|Refused to/i.test(m.text())) violations.push(m.text());
  });
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => console.error(`Refused to: ${e.violatedDirective} ${e.blockedURI}`));
  });
  const demo = fileURLToPath(new URL('../public/demo/rollouts.jsonl', import.meta.url));
  const url = await startView([demo]);
  const res = await page.goto(`${url}?rollout=r-article%23a-1&view=rollout&tab=tokens&tok=492`);
  expect(res?.headers()['content-security-policy']).toContain("frame-ancestors 'none'");
  await expect(page.getByText(/Decoding: decoded with the bundled Qwen3 tokenizer/)).toBeVisible({ timeout: 20_000 });
  await expect(page.getByRole('region', { name: 'Token summary' })).toContainText('856 tokens');
  await page.goto(`${url}?rollout=r-article%23a-1&view=rollout&tab=steps`);
  // An observation is highlighted once its grammar loads (shiki's JavaScript engine: no eval, no wasm).
  await expect(page.locator('pre.code-block[data-lang]').first()).toBeVisible({ timeout: 10_000 });
  await screenshot(page, testInfo, 'view-csp-steps');
  expect(violations).toEqual([]);
});
