import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { buildRollout, toJsonl } from '../src/testing/builders';
import { expectLoaded, screenshot } from './support/app';
import { startView } from './support/view';

test('trajscope view of an empty folder waits for files, never shows the demo, and opens a file when it appears', async ({
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
  } finally {
    server?.kill('SIGTERM');
  }
});
