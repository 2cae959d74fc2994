import { expect, test } from '@playwright/test';
import { expectLoaded, openWithButton, problemsPanel, rolloutRows, screenshot } from './support/app';

/*
 * A file no adapter was written for (issue 24): an agent framework's step list, read by shape, with what was
 * inferred named on the rollout and one click from a field mapping.
 */
const line = (id: string, score: number) =>
  JSON.stringify({
    task_id: id,
    steps: [
      { thought: 'Search first.', action: { tool: 'search', tool_input: { q: 'red mug' } }, observation: '3 results' },
      { thought: 'Buy the first.', action: { tool: 'buy', tool_input: { item: 1 } }, observation: 'bought' },
    ],
    score,
    exit_status: 'submitted',
  });

test('a step list no adapter knows opens by shape, says what it inferred, and reads the same through the mapping it offers', async ({
  page,
}, testInfo) => {
  await page.goto('/');
  await openWithButton(page, {
    name: 'agent-runs.jsonl',
    mimeType: 'text/plain',
    buffer: Buffer.from(`${line('shop-1', 1)}\n${line('shop-2', 0)}\n`),
  });
  await expectLoaded(page, 2);
  await expect(problemsPanel(page)).toContainText('every line loaded');
  await rolloutRows(page).first().dblclick();
  const note = page.getByRole('note').filter({ hasText: 'Read by shape' });
  await expect(note).toContainText('the conversation is steps read as steps messages');
  await expect(note).toContainText('reward from score');
  const steps = page.getByRole('region', { name: 'Rollout steps' });
  await expect(steps.getByText('search', { exact: true })).toBeVisible();
  await expect(steps.getByText('Paired with its call by order').first()).toBeVisible();
  await screenshot(page, testInfo, 'read-by-shape-rollout');

  const saved = page.waitForEvent('download');
  await note.getByRole('button', { name: 'Save as a mapping' }).click();
  const mapping = JSON.parse(await (await (await saved).createReadStream()).toArray().then((c) => Buffer.concat(c).toString('utf8')));
  expect(mapping).toMatchObject({
    messages: { path: 'steps', shape: 'steps' },
    reward: 'score',
    task_id: 'task_id',
    status: 'exit_status',
  });

  await note.getByRole('button', { name: /Read the files with it/ }).click();
  await expect(page).toHaveURL(/[?&]map=/);
  await expect(page.getByRole('note').filter({ hasText: 'Read by shape' })).toHaveCount(0);
  await expect(page.getByRole('region', { name: 'Rollout steps' }).getByText('buy', { exact: true })).toBeVisible();
});
