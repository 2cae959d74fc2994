import { expect, test } from '@playwright/test';
import { buildChain, buildRollout, toJsonl } from '../src/testing/builders';
import { screenshot } from './support/app';
import { gotoSteps, graderLane, stepRow, stepsList } from './support/steps';

test.describe('on a screen tall enough for the whole rollout', () => {
  test.use({ viewport: { width: 1440, height: 2600 } });

  test('the article rollout shows its six steps with action, observation and context, and the grader apart', async ({ page }, testInfo) => {
    await gotoSteps(page, 'r-article#a-1');
    const list = stepsList(page);
    await expect(list.getByRole('listitem', { name: /^Step \d+$/ })).toHaveCount(6);
    const tools = ['read_file', 'edit', 'run_tests', 'edit', 'run_tests', 'finish'];
    for (const [i, tool] of tools.entries()) await expect(stepRow(page, i + 1)).toContainText(tool);

    // The task sits above the first step, how it ended and the grader below the last.
    const order = await list
      .getByRole('listitem', { name: /^(Task|Step \d+|Termination|Grader verdict)$/ })
      .evaluateAll((items) => items.map((i) => i.getAttribute('aria-label')));
    expect(order).toEqual(['Task', 'Step 1', 'Step 2', 'Step 3', 'Step 4', 'Step 5', 'Step 6', 'Termination', 'Grader verdict']);
    await screenshot(page, testInfo, 'rollout-steps-article');
  });
});

test('each column says what the model did, got back and saw', async ({ page }, testInfo) => {
  await gotoSteps(page, 'r-article#a-1');
  await expect(page.getByRole('region', { name: 'Task' })).toContainText('The repository has search.py with a function search(a, target)');

  // Step 1: the file read comes back as highlighted Python.
  const read = stepRow(page, 1);
  await expect(read).toContainText('path');
  await expect(read).toContainText('search.py');
  await expect(read.getByText('def search(a, target):')).toBeVisible();
  await expect(read).toContainText('492 tokens');
  await expect(read).toContainText('the first context');

  // Step 2: the edit as a diff, the changed words marked.
  const edit = stepRow(page, 2);
  await edit.scrollIntoViewIfNeeded();
  await expect(edit.getByRole('insertion').filter({ hasText: '+ 1' })).toBeVisible();
  await expect(edit).toContainText('low = mid');
  await expect(edit).toContainText('39 tokens');
  await expect(edit).toContainText(/log p −\d\.\d\d/);
  // Its context is step 1's plus the file the model read, folded history first.
  await expect(edit.getByRole('button', { name: '513 tokens seen before' })).toHaveAttribute('aria-expanded', 'false');
  await expect(edit.getByRole('insertion').filter({ hasText: 'high = mid' })).toBeVisible();

  // Step 3: the test run that went over budget, test by test.
  const tests = stepRow(page, 3);
  await tests.scrollIntoViewIfNeeded();
  await expect(tests.getByText('budget_exceeded', { exact: true })).toBeVisible();
  await expect(tests).toContainText('exit 1');
  await expect(tests.getByRole('list', { name: 'Tests over budget' })).toHaveText('find 0');
  await expect(tests.getByRole('list', { name: 'Tests passed' }).getByRole('listitem')).toHaveText(['find 3', 'find 6']);
  await screenshot(page, testInfo, 'rollout-steps-columns');

  // Unfolding the history shows what the model had already seen.
  await edit.scrollIntoViewIfNeeded();
  await edit.getByRole('button', { name: '513 tokens seen before' }).click();
  await expect(edit.getByRole('button', { name: '513 tokens seen before' })).toHaveAttribute('aria-expanded', 'true');
  await expect(edit).toContainText('You are a careful software engineer.');
});

test('the grader’s private verdict sits after the last step, apart from what the model saw', async ({ page }, testInfo) => {
  await gotoSteps(page, 'r-article#a-1', '&step=6');
  const grader = graderLane(page);
  await grader.scrollIntoViewIfNeeded();
  await expect(grader).toContainText('Grader — private, training side only: never in the model’s context');
  await expect(grader).toContainText('pass');
  await expect(grader.getByRole('list', { name: 'Private tests passed' }).getByRole('listitem')).toHaveCount(4);
  await expect(grader).toContainText('trajscope-demo-private-tests');
  await expect(grader).toContainText('sha256:a6f81f41acd7f4e6');
  await expect(grader).toContainText('+            low = mid + 1');

  const end = page.getByRole('region', { name: 'Termination' });
  await expect(end).toContainText('finished');
  await expect(end).toContainText('in signal: submitted normally');
  await expect(end).toContainText('finish called at step 6');

  // Set apart: its own background, different from every step row's.
  const background = (el: Element) => getComputedStyle(el).backgroundColor;
  const laneBg = await grader.evaluate(background);
  const rowBg = await stepRow(page, 6).locator('> div').evaluate(background);
  expect(laneBg).not.toBe(rowBg);
  await screenshot(page, testInfo, 'rollout-steps-grader');
});

test('a retried call executed once says so', async ({ page }, testInfo) => {
  await gotoSteps(page, 'r-retry#a-1', '&step=2');
  const retried = stepRow(page, 2);
  await expect(retried).toContainText('2 transport attempts, executed once');
  await expect(retried).toContainText('5.06 s');
  await screenshot(page, testInfo, 'rollout-steps-retry');
});

test('a rejected call reads as never executed, and the end says why the rollout stopped', async ({ page }, testInfo) => {
  await gotoSteps(page, 'r-invalid#a-1', '&step=3');
  const rejected = stepRow(page, 3);
  await expect(rejected).toContainText('run_shell');
  await expect(rejected).toContainText('python3 -m pytest -q');
  await expect(rejected).toContainText('1 transport attempt, never executed');
  const end = page.getByRole('region', { name: 'Termination' });
  await end.scrollIntoViewIfNeeded();
  await expect(end).toContainText('invalid call');
  await expect(end).toContainText('unknown tool "run_shell"');
  await expect(graderLane(page)).toContainText('No grading recorded');
  await screenshot(page, testInfo, 'rollout-steps-invalid');
});

test('a rollout of 400 steps opens quickly and keeps only the rows near the view in the page', async ({ page }, testInfo) => {
  const tools = Array.from({ length: 400 }, (_, i) => ({ tool: i % 2 ? 'run_tests' : 'read_file' }));
  const body = toJsonl([buildRollout({ rollout_id: 'r-long', ...buildChain(tools) })]);
  await page.route(
    (url) => url.pathname === '/fixtures/long.jsonl',
    (route) => route.fulfill({ status: 200, contentType: 'application/x-ndjson', body }),
  );
  await page.goto('/?src=/fixtures/long.jsonl&rollout=r-long%23a-1&view=rollout&step=250');
  const started = Date.now();
  await expect(stepRow(page, 250)).toBeInViewport();
  // Budget for 400 steps (1.1 MB): the selected row within 5 s of the load, a few dozen rows at most.
  expect(Date.now() - started).toBeLessThan(5000);
  const rows = await stepsList(page)
    .getByRole('listitem', { name: /^Step \d+$/ })
    .count();
  expect(rows).toBeGreaterThan(0);
  expect(rows).toBeLessThan(25);

  await page.getByRole('region', { name: 'Rollout steps' }).press('End');
  await expect(graderLane(page)).toBeInViewport();
  await expect(stepRow(page, 400)).toBeAttached();
  await screenshot(page, testInfo, 'rollout-steps-long');
});

test('a long task prompt is folded to its first lines, so step 1 is on the first screen (issue 31)', async ({ page }, testInfo) => {
  const prompt = Array.from({ length: 80 }, (_, i) => `Rule ${i + 1}: keep the tests green and the diff small.`).join('\n');
  const body = toJsonl([buildRollout({ rollout_id: 'r-long-prompt', task: { prompt }, ...buildChain([{ tool: 'read_file' }]) })]);
  await page.route(
    (url) => url.pathname === '/fixtures/long-prompt.jsonl',
    (route) => route.fulfill({ status: 200, contentType: 'application/x-ndjson', body }),
  );
  await page.goto('/?src=/fixtures/long-prompt.jsonl&rollout=r-long-prompt%23a-1&view=rollout');
  const task = page.getByRole('region', { name: 'Task' });
  const unfold = task.getByRole('button', { name: 'Show the whole prompt (80 lines)' });
  await expect(unfold).toBeVisible();
  await expect(stepRow(page, 1)).toBeInViewport();
  await screenshot(page, testInfo, 'rollout-steps-long-prompt');
  await unfold.click();
  await expect(task).toContainText('Rule 80: keep the tests green');
  await expect(task.getByRole('button', { name: 'Fold the prompt' })).toHaveAttribute('aria-expanded', 'true');
});
