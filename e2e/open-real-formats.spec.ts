import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect, type Page, test } from '@playwright/test';
import { createLineParser, type LineResult } from '../src/format';
import { expectLoaded, openWithButton, problemsPanel, rolloutRows, screenshot } from './support/app';

/*
 * Real files these tools published (../shared/real-data beside the project, read in place, never copied
 * in) open in the app as a person would open them: every rollout the format layer finds, no bad line.
 */
const REAL = fileURLToPath(new URL('../../shared/real-data/', import.meta.url));
const missing = existsSync(REAL) ? null : `no ${REAL}: the shared real-data folder is not beside this clone`;

function expectedIds(path: string): string[] {
  const name = path.split('/').pop() ?? path;
  const parser = createLineParser(name);
  const results: LineResult[] = [...parser.push(readFileSync(`${REAL}${path}`)), ...parser.end()];
  return results.flatMap((r) => (r.kind === 'rollout' ? [r.value.record.rollout_id] : []));
}

async function open(page: Page, path: string): Promise<string[]> {
  const ids = expectedIds(path);
  await page.goto('/');
  await openWithButton(page, {
    name: path.split('/').pop() ?? path,
    mimeType: 'application/octet-stream',
    buffer: readFileSync(`${REAL}${path}`),
  });
  await expectLoaded(page, ids.length);
  await expect(problemsPanel(page)).toContainText('every line loaded');
  return ids;
}

test.describe('real files of other tools', () => {
  test.skip(missing !== null, missing ?? '');

  const cases = [
    ['mini-swe-agent-v2/astropy__astropy-12907.traj.json', 'mini-swe-agent'],
    ['swe-agent-pydicom/pydicom__pydicom-1458.traj', 'SWE-agent without function calling'],
    ['verl-rollout-sdpo/1.jsonl', 'veRL rollout dump'],
    ['harbor-golden/hello-world-context-summarization.trajectory.json', 'Harbor ATIF'],
    ['atropos-scored-groups/objreward.jsonl', 'Atropos groups'],
  ] as const;
  for (const [path, label] of cases) {
    test(`a ${label} file opens and lists every rollout`, async ({ page }, testInfo) => {
      const ids = await open(page, path);
      expect(ids.length).toBeGreaterThan(0);
      await expect(rolloutRows(page)).toHaveCount(Math.min(ids.length, 16));
      await expect(rolloutRows(page).first()).toContainText(ids[0]?.split('/').pop()?.slice(0, 20) ?? '');
      await screenshot(page, testInfo, `real-${label.replace(/[^a-z0-9]+/gi, '-')}`);
    });
  }

  test('SWE-agent without function calling: every action and its observation is a step, its id marked as a locator', async ({
    page,
  }, testInfo) => {
    await open(page, 'swe-agent-pydicom/pydicom__pydicom-1458.traj');
    await rolloutRows(page).first().dblclick();
    await expect(page.getByText('[File: /pydicom__pydicom/reproduce_bug.py (1 lines total)]').first()).toBeVisible();
    await expect(page.getByText('pydicom__pydicom-1458.traj:1/trajectory[0] location, not a call id')).toBeVisible();
    await screenshot(page, testInfo, 'real-swe-agent-steps');
  });

  test('Atropos: the token view shows the trainer’s sequence with what was trained', async ({ page }, testInfo) => {
    await open(page, 'atropos-scored-groups/objreward.jsonl');
    await rolloutRows(page).first().dblclick();
    await page.getByRole('tab', { name: /tokens/i }).click();
    await expect(page.getByRole('main')).toContainText(/993/);
    await screenshot(page, testInfo, 'real-atropos-tokens');
  });
});

test.describe('rollouts with no recorded status', () => {
  test.skip(missing !== null, missing ?? '');

  test('say why nothing is in the signal, and count them as finished only when asked (held in the URL)', async ({ page }, testInfo) => {
    const body = readFileSync(`${REAL}verl-rollout-sdpo/1.jsonl`, 'utf8');
    await page.route(
      (url) => url.pathname === '/runs/1.jsonl',
      (route) => route.fulfill({ status: 200, contentType: 'application/x-ndjson', body }),
    );
    await page.goto('/?src=/runs/1.jsonl');
    await expectLoaded(page, 3);
    const notice = page.getByRole('status', { name: 'Rollouts with no recorded status' });
    await expect(notice).toContainText(
      'All 3 rollouts record no termination status (termination “unknown”), so they are left out of the signal',
    );
    await expect(page.getByRole('region', { name: 'Summary' })).toContainText('0 in signal');
    await screenshot(page, testInfo, 'unknown-status-off');

    await notice.getByRole('checkbox', { name: 'Count rollouts with no recorded status as finished' }).check();
    await expect(page).toHaveURL(/unknown=finished/);
    await expect(page.getByRole('region', { name: 'Summary' })).toContainText('3 in signal');
    await expect(notice).toContainText('you chose to count them as finished');
    // A reload reads the same way: the choice is in the address.
    await page.reload();
    await expectLoaded(page, 3);
    await expect(page.getByRole('region', { name: 'Summary' })).toContainText('3 in signal');
    await expect(page.getByRole('checkbox', { name: 'Count rollouts with no recorded status as finished' })).toBeChecked();
    await screenshot(page, testInfo, 'unknown-status-on');
    // The groups page says the same, with the same switch.
    await page.getByRole('banner').getByRole('button', { name: 'Groups' }).click();
    await expect(page.getByRole('status', { name: 'Rollouts with no recorded status' })).toContainText(
      'you chose to count them as finished',
    );
    await page.getByRole('checkbox', { name: 'Count rollouts with no recorded status as finished' }).uncheck();
    await expect(page).not.toHaveURL(/unknown=finished/);
    await expect(page.getByRole('status', { name: 'Rollouts with no recorded status' })).toContainText('no group has statistics');
    await screenshot(page, testInfo, 'unknown-status-groups');
  });
});

test('a file of no known format says so once, and reads by a field mapping chosen and previewed in the page', async ({
  page,
}, testInfo) => {
  const EXAMPLES = fileURLToPath(new URL('../docs/examples/mapping/', import.meta.url));
  const body = readFileSync(`${EXAMPLES}agent-runner.jsonl`, 'utf8');
  await page.route(
    (url) => url.pathname === '/runs/agent.jsonl',
    (route) => route.fulfill({ status: 200, contentType: 'application/x-ndjson', body }),
  );
  await page.goto('/?src=/runs/agent.jsonl');
  await expect(page.getByRole('alert')).toContainText('This file is not in a format Trajscope knows');
  await expect(page.getByRole('alert')).toContainText(
    'agent.jsonl: JSON objects with fields "episode", "problem", "model", "iteration", "turns", "outcome"',
  );
  await expect(problemsPanel(page)).toContainText('every line loaded');
  await screenshot(page, testInfo, 'mapping-unsupported');

  await page.getByRole('button', { name: 'Read it with a field mapping…' }).click();
  const editor = page.getByRole('textbox', { name: 'Mapping JSON' });
  // A wrong termination is named by its mapping field, and nothing can be applied.
  await editor.fill('{"rollout_id": "episode", "status": "outcome", "status_map": {"solved": "won"}}');
  await expect(page.getByRole('list', { name: 'Mapping problems' })).toContainText('status_map.solved: expected one of finished');
  await expect(page.getByRole('button', { name: 'Apply mapping' })).toBeDisabled();
  await editor.fill(readFileSync(`${EXAMPLES}agent-runner.map.json`, 'utf8'));
  const preview = page.getByRole('region', { name: 'Preview' });
  await expect(preview).toContainText('ep-0007');
  await expect(preview).toContainText('budget_exhausted');
  await screenshot(page, testInfo, 'mapping-editor');

  await page.getByRole('button', { name: 'Apply mapping' }).click();
  await expect(page).toHaveURL(/map=/);
  await expectLoaded(page, 3);
  await expect(rolloutRows(page).first()).toContainText('ep-0007');
  await expect(page.getByRole('status').filter({ hasText: 'read with the field mapping' })).toBeVisible();
  await page.reload();
  await expectLoaded(page, 3);
  await screenshot(page, testInfo, 'mapping-applied');
});
