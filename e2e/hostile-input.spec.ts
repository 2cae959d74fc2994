import { gzipSync } from 'node:zlib';
import { expect, test } from '@playwright/test';
import { buildRollout } from '../src/testing/builders';
import { expectLoaded, openWithButton, problemsPanel, rolloutRows, screenshot } from './support/app';

/* Hostile files through the Open button (issue 18): each costs at most its own line, in the real worker. */

const line = (id: string) => `${JSON.stringify(buildRollout({ rollout_id: id }))}\n`;

test('a line nested 3,000 deep in `sampling` is one problem; the lines around it load', async ({ page }, testInfo) => {
  let deep = '1';
  for (let i = 0; i < 3000; i++) deep = `{"a":${deep}}`;
  const bad = `${JSON.stringify(buildRollout({ rollout_id: 'deep' })).replace(/}$/, `,"sampling":${deep}}`)}\n`;
  await page.goto('/');
  await openWithButton(page, {
    name: 'deep.jsonl',
    mimeType: 'application/x-ndjson',
    buffer: Buffer.from(line('r-1') + bad + line('r-2')),
  });
  await expectLoaded(page, 2, 20_000);
  await expect(rolloutRows(page)).toHaveCount(2);
  await expect(problemsPanel(page).getByRole('listitem')).toHaveCount(1);
  await expect(problemsPanel(page).getByRole('listitem')).toContainText('nested deeper than 256 levels');
  await screenshot(page, testInfo, 'hostile-deep');
});

test('a gzip file with garbage after its data keeps every line and reports the garbage once', async ({ page }) => {
  const lines = Array.from({ length: 200 }, (_, i) => ({ ...buildRollout({ rollout_id: `g-${i}` }), pad: 'x'.repeat(500) }));
  const gz = Buffer.concat([gzipSync(lines.map((l) => `${JSON.stringify(l)}\n`).join('')), Buffer.from('trailing garbage, not gzip')]);
  await page.goto('/');
  await openWithButton(page, { name: 'trail.jsonl.gz', mimeType: 'application/gzip', buffer: gz });
  await expectLoaded(page, 200, 20_000);
  await expect(problemsPanel(page).getByRole('listitem')).toHaveCount(1);
  await expect(problemsPanel(page).getByRole('listitem')).toContainText('stop being gzip data');
});
