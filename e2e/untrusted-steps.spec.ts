import { expect, test } from '@playwright/test';
import { buildRollout, buildSegment, buildStep, toJsonl } from '../src/testing/builders';
import { expectLoaded, openWithButton, screenshot } from './support/app';
import { payload } from './support/fixtures';
import { graderLane, openSteps, stepRow } from './support/steps';

const IMG = '<img src=x onerror="window.__xss=1">';
const SCRIPT = '<script>window.__xss=2</script>';
const SVG = '<svg/onload=window.__xss=3>';
const IFRAME = '<iframe src="javascript:window.__xss=4"></iframe>';

const file = {
  name: 'hostile-steps.jsonl',
  text: toJsonl([
    buildRollout({
      rollout_id: 'r-hostile',
      tokenizer: { name: 'test/words', version: '1' },
      task: { prompt: `Fix ${SCRIPT} please`, contract: IFRAME },
      segments: [
        buildSegment({
          input_ids: [1, 2, 3],
          input_tokens: ['<|im_start|>', SCRIPT, '\n'],
          generated_ids: [4, 5],
          generated_tokens: ['<tool_call>', IMG],
          old_logprobs: [-0.5, -0.1],
          tool_call_id: 'c-1',
        }),
        buildSegment({
          input_ids: [1, 2, 3, 4, 5, 6],
          input_tokens: ['<|im_start|>', SCRIPT, '\n', '<tool_call>', IMG, SVG],
          generated_ids: [7],
          generated_tokens: ['x'],
          old_logprobs: [-1],
          tool_call_id: 'c-2',
        }),
      ],
      steps: [
        buildStep({
          tool_call_id: 'c-1',
          tool: 'read_file',
          args: { path: `${IMG}.py` },
          observation: { status: 'ok', text: `def f():\n    return "${SCRIPT}"  # ${SVG}\n` },
        }),
        buildStep({
          tool_call_id: 'c-2',
          tool: 'edit',
          args: { path: SVG, old: IMG, new: SCRIPT },
          observation: { status: IFRAME, text: IMG },
        }),
      ],
      grading: {
        verdict: SVG,
        artifact: `diff --git a/x.py b/x.py\n--- a/x.py\n+++ b/x.py\n@@ -1 +1 @@\n-${IMG}\n+${SCRIPT}\n`,
        artifact_digest: IFRAME,
        grader: { name: SCRIPT, version: IMG },
      },
    }),
  ]),
};

test('markup in prompts, arguments, observations and the grader artifact is shown as text and never runs', async ({ page }, testInfo) => {
  await page.goto('/');
  await openWithButton(page, payload(file));
  await expectLoaded(page, 1);
  await openSteps(page, 'r-hostile');

  await expect(page.getByRole('region', { name: 'Task' })).toContainText(`Fix ${SCRIPT} please`);
  await expect(page.getByRole('region', { name: 'Task' })).toContainText(IFRAME);

  // A path argument, and the observation highlighted as Python because the path ends in .py.
  const read = stepRow(page, 1);
  await expect(read).toContainText(`${IMG}.py`);
  await expect(read).toContainText(`return "${SCRIPT}"  # ${SVG}`);
  // The model-visible context from the record's token strings.
  await expect(read).toContainText(`<|im_start|>${SCRIPT}`);

  const edit = stepRow(page, 2);
  await expect(edit).toContainText(SVG);
  // The edit's old text is the image tag, its new text the script: both shown, as a diff.
  await expect(edit.getByRole('deletion').first()).toBeVisible();
  await expect(edit).toContainText(IMG);
  await expect(edit).toContainText(IFRAME);
  await expect(edit.getByRole('insertion').filter({ hasText: SVG })).toBeVisible();

  const grader = graderLane(page);
  await grader.scrollIntoViewIfNeeded();
  await expect(grader).toContainText(`+${SCRIPT}`);
  await expect(grader).toContainText(`-${IMG}`);
  await expect(grader).toContainText(IFRAME);
  await expect(grader).toContainText(SVG);
  await screenshot(page, testInfo, 'untrusted-steps');

  // The raw record too.
  await page.getByRole('tab', { name: 'Raw JSON' }).click();
  await expect(page.getByRole('document', { name: 'Raw JSON' })).toContainText(JSON.stringify(IMG));

  expect(await page.evaluate(() => Reflect.get(window, '__xss'))).toBeUndefined();
  expect(await page.evaluate(() => document.querySelectorAll('main img, main script, main svg, main iframe').length)).toBe(0);
});

test('the steps view builds no markup from file text', async ({ page }) => {
  await page.goto('/');
  await openWithButton(page, payload(file));
  await expectLoaded(page, 1);
  await openSteps(page, 'r-hostile');
  await expect(stepRow(page, 1)).toContainText('def f():');
  // Wait for the highlighter to colour the observation, then look for any element made from file text.
  await expect(stepRow(page, 1).getByText('def', { exact: true })).toHaveAttribute('style', /color/);
  await graderLane(page).scrollIntoViewIfNeeded();
  expect(await page.evaluate(() => Reflect.get(window, '__xss'))).toBeUndefined();
  expect(await page.evaluate(() => document.querySelectorAll('main img, main script, main svg, main iframe').length)).toBe(0);
});
