import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { buildRollout, toJsonl } from '../src/testing/builders';
import { expectLoaded, screenshot } from './support/app';
import { startView } from './support/view';

test('trajscope view of an empty folder waits for files, never shows the demo, opens a file when it appears, and its run page when it becomes a run', async ({
  page,
}, testInfo) => {
  test.setTimeout(90_000);
  const dir = mkdtempSync(join(tmpdir(), 'trajscope-e2e-empty-'));
  let server: ChildProcess | undefined;
  try {
    const base = await startView([dir], (child) => {
      server = child;
    });
    await page.goto(base);
    await expect(page.getByRole('heading', { name: 'Waiting for trajectory files' })).toBeVisible({ timeout: 30_000 });
    await expect(page.getByRole('banner')).not.toContainText('Demo');
    await screenshot(page, testInfo, 'view-empty-folder');
    // A run starts writing: the file opens here, with no reload.
    writeFileSync(
      join(dir, 'step_0000.jsonl'),
      toJsonl([buildRollout({ rollout_id: 'r-first' }), buildRollout({ rollout_id: 'r-second' })]),
    );
    await expectLoaded(page, 2, 30_000);
    await expect(page.getByRole('heading', { name: 'Waiting for trajectory files' })).toHaveCount(0);
    // A second file makes the folder a run: the server indexes it and the page moves to its run page
    // without a reload (issue 31: run mode was decided once, when view started).
    writeFileSync(
      join(dir, 'step_0001.jsonl'),
      toJsonl([
        buildRollout({ rollout_id: 'r-third', policy_version: 'v-2' }),
        buildRollout({ rollout_id: 'r-fourth', policy_version: 'v-2' }),
      ]),
    );
    await expect(page).toHaveURL(/[?&]run=%2Frun%2F|[?&]run=\/run\//, { timeout: 30_000 });
    await expect(page.getByRole('figure', { name: 'Reward' })).toBeVisible({ timeout: 30_000 });
    await screenshot(page, testInfo, 'view-folder-became-run');
  } finally {
    server?.kill('SIGTERM');
  }
});
