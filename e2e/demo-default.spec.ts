import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { parseLine } from '../src/format';
import { expectLoaded, rolloutRows, screenshot } from './support/app';

/** The embedded demo as the app must show it, read from the file the build copies. */
function demoRollouts(): string[] {
  const path = new URL('../public/demo/rollouts.jsonl', import.meta.url);
  const lines = readFileSync(path, 'utf8').split('\n');
  return lines.flatMap((text, i) => {
    const result = parseLine(text, i + 1, 'rollouts.jsonl');
    return result?.kind === 'rollout' ? [result.value.record.rollout_id] : [];
  });
}

test('the default page lists the embedded demo rollouts', async ({ page }, testInfo) => {
  const ids = demoRollouts();
  expect(ids.length, 'public/demo/rollouts.jsonl holds rollouts').toBeGreaterThan(0);

  await page.goto('/');
  await expect(page.getByRole('banner')).toContainText('Demo');
  await expectLoaded(page, ids.length);
  await expect(rolloutRows(page).first()).toContainText(ids[0] ?? '');
  await screenshot(page, testInfo, 'demo-default');
});

test('when the demo file is missing the page says so and offers to open a file', async ({ page }, testInfo) => {
  await page.route(
    (url) => url.pathname.endsWith('/demo/rollouts.jsonl'),
    (route) => route.fulfill({ status: 404, body: 'not found' }),
  );
  await page.goto('/');

  await expect(page.getByRole('heading', { name: 'The demo data is not in this build' })).toBeVisible();
  await expect(page.getByRole('alert').getByRole('button', { name: 'Open files…' })).toBeVisible();
  await screenshot(page, testInfo, 'demo-missing');
});
