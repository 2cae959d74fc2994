import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { buildRollout, buildSegment, buildStep, toJsonl } from '../src/testing/builders';
import { expectLoaded, openWithButton, screenshot } from './support/app';
import { payload } from './support/fixtures';
import { startView } from './support/view';

const FILE = {
  name: 'search.jsonl',
  text: toJsonl([
    buildRollout({
      rollout_id: 'r-crash',
      reward: 0,
      steps: [
        buildStep({ tool_call_id: 'c-1', tool: 'read_file', observation: { status: 'ok', text: 'def search(a, t):' } }),
        buildStep({
          tool_call_id: 'c-2',
          tool: 'run_shell',
          args: { cmd: 'pytest -q' },
          observation: { status: 'error', text: 'Traceback (most recent call last):\n  File "search.py"' },
        }),
      ],
      segments: [buildSegment({ tool_call_id: 'c-1' }), buildSegment({ tool_call_id: 'c-2', generated_tokens: ['run', ' the', ' tests'] })],
    }),
    buildRollout({ rollout_id: 'r-fine', reward: 1, steps: [buildStep({ observation: { status: 'ok', text: 'all 6 passed' } })] }),
    buildRollout({
      rollout_id: 'r-hostile',
      reward: 0,
      steps: [buildStep({ observation: { status: 'ok', text: 'Traceback <img src=x onerror="window.__pwned=1"> done' } })],
    }),
  ]),
};

async function search(page: import('@playwright/test').Page, query: string) {
  const box = page.getByRole('searchbox', { name: 'Search rollouts' });
  await box.fill(query);
  await box.press('Enter');
}

test('a text search lists the matching rollouts with highlighted snippets, and a hit opens its step', async ({ page }, testInfo) => {
  await page.goto('/');
  await openWithButton(page, payload(FILE));
  await expectLoaded(page, 3);
  await search(page, 'traceback');
  await expect(page).toHaveURL(/view=search&q=traceback|q=traceback.*view=search/);
  const results = page.getByRole('list', { name: 'Matching rollouts' });
  await expect(page.getByRole('status')).toContainText('2 rollouts match');
  await expect(results.getByRole('listitem')).toHaveCount(2);
  const crash = results.getByRole('listitem').filter({ hasText: 'r-crash' });
  await expect(crash).toContainText('1 hit');
  await expect(crash.locator('mark')).toHaveText('Traceback');
  // Trajectory text is shown as text: the markup is visible, never run.
  await expect(results.getByRole('listitem').filter({ hasText: 'r-hostile' })).toContainText('<img src=x onerror=');
  expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
  await screenshot(page, testInfo, 'search-results');

  await crash.getByRole('button', { name: /step 2 · observation/ }).click();
  await expect(page).toHaveURL(/view=rollout/);
  await expect(page).toHaveURL(/step=2/);
  // The opened hit is marked where the step shows it, and only there (issue 31).
  const steps = page.getByRole('region', { name: 'Rollout steps' });
  await expect(steps.locator('mark.search-mark')).toHaveText(['Traceback']);
  await expect(steps.locator('[aria-current="true"] mark.search-mark')).toHaveText('Traceback');
  await screenshot(page, testInfo, 'search-hit-opened');
  await page.goBack();
  await expect(results.getByRole('listitem')).toHaveCount(2);
});

test('hits read down the rollout, the ones not listed are counted, / focuses the box, and an opened hit leads back to the results', async ({
  page,
}, testInfo) => {
  const steps = Array.from({ length: 5 }, (_, i) =>
    buildStep({ tool_call_id: `c-${i + 1}`, tool: 'run_shell', observation: { status: 'ok', text: `zeta run ${i + 1}` } }),
  );
  const segments = steps.map((st) => buildSegment({ tool_call_id: st.tool_call_id }));
  await page.goto('/');
  await openWithButton(page, payload({ name: 'many.jsonl', text: toJsonl([buildRollout({ rollout_id: 'r-many', steps, segments })]) }));
  await expectLoaded(page, 1);
  // `/` from anywhere but a field puts the cursor in the search box.
  await page.getByRole('region', { name: 'Summary' }).click();
  await page.keyboard.press('/');
  await expect(page.getByRole('searchbox', { name: 'Search rollouts' })).toBeFocused();
  await page.keyboard.type('zeta');
  await page.keyboard.press('Enter');
  const result = page.getByRole('list', { name: 'Matching rollouts' }).getByRole('listitem');
  await expect(result).toContainText('5 hits');
  await expect(result.getByRole('button', { name: /step \d · observation/ })).toHaveText([/^step 1/, /^step 2/, /^step 3/]);
  await expect(result.getByRole('button', { name: 'and 2 more hits in this rollout: open it' })).toBeVisible();
  await screenshot(page, testInfo, 'search-more-hits');

  await result.getByRole('button', { name: /step 2 · observation/ }).click();
  await expect(page).toHaveURL(/step=2/);
  await page.getByRole('button', { name: '← Results for “zeta”' }).click();
  await expect(page).toHaveURL(/view=search/);
  await expect(result).toContainText('5 hits');
});

test('structured terms, negation, a generated-text hit opening its token, and errors naming the term', async ({ page }, testInfo) => {
  await page.goto('/');
  await openWithButton(page, payload(FILE));
  await expectLoaded(page, 3);
  await search(page, 'tool:run_shell reward:0');
  const results = page.getByRole('list', { name: 'Matching rollouts' });
  await expect(results.getByRole('listitem')).toHaveCount(1);
  await expect(results.getByRole('listitem')).toContainText('r-crash');

  await search(page, 'reward<1 -traceback');
  await expect(page.getByRole('status')).toContainText('0 rollouts match');

  await search(page, '"the tests"');
  await results.getByRole('button', { name: /generated · token 1/ }).click();
  await expect(page).toHaveURL(/tab=tokens/);
  await expect(page).toHaveURL(/seq=1&tok=1/);
  await page.goBack();

  await search(page, 'reward>high');
  await expect(page.getByRole('alert')).toContainText('"high" is not a number');
  await page.getByRole('button', { name: 'Search help' }).click();
  const help = page.getByRole('dialog', { name: 'Search terms' });
  for (const term of ['tool:run_shell', 'status:timeout', 'term:infra_failure', 'code:E_TRAINING_MASK', 'step>=100', 'has:regression']) {
    await expect(help).toContainText(term);
  }
  await screenshot(page, testInfo, 'search-help-and-error');
});

test('a scan in progress shows progress and can be cancelled, keeping what it found', async ({ page, context }, testInfo) => {
  let requests = 0;
  let release = () => {};
  const held = new Promise<void>((r) => {
    release = r;
  });
  // The page's load reads the file at once; the search worker's read of it is held until the test lets go.
  await context.route(
    (url) => url.pathname === '/data/slow.jsonl',
    async (route) => {
      requests++;
      if (requests > 1) await held;
      await route.fulfill({ status: 200, contentType: 'application/x-ndjson', body: FILE.text }).catch(() => {});
    },
  );
  await page.goto('/?src=/data/slow.jsonl');
  await expectLoaded(page, 3);
  await search(page, 'traceback');
  const status = page.getByRole('status');
  await expect(status).toContainText('scanning in this page');
  await expect(page.getByRole('progressbar', { name: 'Search progress' })).toBeVisible();
  await screenshot(page, testInfo, 'search-scanning');
  await page.getByRole('button', { name: 'Cancel' }).click();
  await expect(status).toContainText('cancelled');
  await expect(page.getByRole('button', { name: 'Cancel' })).toHaveCount(0);
  release();
  // A new query scans afresh.
  await search(page, 'passed');
  await expect(status).toContainText('1 rollout matches');
  await expect(status).toContainText('3 rollouts scanned');
});

test('under trajscope view the server scans its files and the page shows the same results', async ({ page }, testInfo) => {
  const dir = mkdtempSync(join(tmpdir(), 'trajscope-search-e2e-'));
  writeFileSync(join(dir, FILE.name), FILE.text);
  let server: ChildProcess | null = null;
  try {
    const base = await startView([dir], (child) => {
      server = child;
    });
    await page.goto(base);
    await expectLoaded(page, 3);
    await search(page, 'traceback tool:run_shell');
    const status = page.getByRole('status');
    await expect(status).toContainText('1 rollout matches');
    await expect(status).toContainText('scanned on the trajscope view server');
    await expect(page.getByRole('list', { name: 'Matching rollouts' }).getByRole('listitem')).toContainText('r-crash');
    await screenshot(page, testInfo, 'search-served');
  } finally {
    (server as ChildProcess | null)?.kill('SIGTERM');
  }
});
