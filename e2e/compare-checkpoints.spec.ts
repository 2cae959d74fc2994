import { expect, test } from '@playwright/test';
import { screenshot } from './support/app';

test('the demo training run: first vs last policy task by task, a filter, step ranges, and a pair opened', async ({ page }, testInfo) => {
  await page.goto('/');
  await page.getByRole('button', { name: /Open the demo training run/ }).click();
  // It opens on its run page (its committed index); checkpoints read the same rollouts.
  await expect(page.getByRole('region', { name: 'Run' })).toContainText('384 rollouts', { timeout: 30_000 });
  await page.getByRole('navigation', { name: 'Pages' }).getByRole('button', { name: 'Checkpoints' }).click();
  await expect(page).toHaveURL(/view=checkpoints/);
  const summary = page.getByRole('status');
  await expect(summary).toContainText('tasks on both sides');
  await expect(summary).toContainText('mean reward change');
  await expect(summary).toContainText('95% CI');
  await expect(page.getByRole('combobox', { name: 'A: policy version' })).toHaveValue('v-0000');
  await expect(page.getByRole('combobox', { name: 'B: policy version' })).toHaveValue(/v-002\d/);
  const tasks = page.getByRole('list', { name: 'Tasks' }).getByRole('listitem');
  await expect(tasks.first()).toBeVisible();
  await screenshot(page, testInfo, 'compare-checkpoints');

  const total = await tasks.count();
  await page.getByRole('button', { name: /^Improved \(/ }).click();
  for (const row of await tasks.all()) await expect(row.locator('.cp-delta')).toHaveText(/^\+/);
  await page.getByRole('button', { name: /^All \(/ }).click();
  await expect(tasks).toHaveCount(total);

  // Training-step ranges: the records state their training_step.
  await page.getByRole('combobox', { name: 'A: compare by' }).selectOption('steps');
  await page.getByRole('spinbutton', { name: 'A: to step' }).fill('3');
  await expect(page).toHaveURL(/ca=steps:0-3/);
  await expect(summary).toContainText('tasks on both sides');

  await tasks.first().getByRole('button', { name: 'Open pair' }).click();
  await expect(page).toHaveURL(/view=compare/);
  await expect(page.getByRole('list', { name: 'Aligned steps' })).toBeVisible();
  await page.goBack();
  await expect(page).toHaveURL(/view=checkpoints/);
});
