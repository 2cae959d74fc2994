import { readdirSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { expectLoaded, rolloutRows, screenshot } from './support/app';

const RUN_FILES = readdirSync(new URL('../public/demo/run/', import.meta.url)).filter((f) => f.endsWith('.jsonl.gz'));
const PER_STEP = 16;

test('the start page offers the demo training run beside the single-file demo, and opens it on its run page', async ({
  page,
}, testInfo) => {
  test.setTimeout(90_000); // the start page twice, the run page twice, 384 rows
  for (const width of [1440, 1024]) {
    await page.setViewportSize({ width, height: 800 });
    await page.goto('/');
    const banner = page.getByRole('banner');
    await expect(banner).toContainText('Demo');
    await expectLoaded(page, 44);
    // At every width the way to the run stays on screen.
    await expect(banner.getByRole('button', { name: 'Open the demo training run' })).toBeInViewport();
    await screenshot(page, testInfo, `demo-run-offer-${width}`);
  }

  const banner = page.getByRole('banner');
  await banner.getByRole('button', { name: 'Open the demo training run' }).click();
  // Its committed index: the run page, charted over training steps (the weights that sampled), one fewer than files.
  await expect(page).toHaveURL(/\?run=\/demo\/run-index\/$/);
  const training = RUN_FILES.length - 1;
  await expect(page.getByRole('region', { name: 'Run' })).toContainText(
    `${RUN_FILES.length * PER_STEP} rollouts over ${training} training steps`,
    { timeout: 60_000 },
  );
  await expect(banner).toContainText('Demo run');
  await expect(banner).toContainText(`${training} training steps in ${RUN_FILES.length} files`);
  const reward = page.getByRole('figure', { name: 'Reward' });
  await expect(reward.locator('.recharts-line-curve')).toBeVisible();
  // Axis titles, and a reward axis from 0 to 1: the ±1 std band of a 0/1 reward set it at −0.45 to 1.35.
  await expect(reward).toContainText('training step');
  await expect(reward.locator('.recharts-yAxis-tick-labels text')).toHaveText(['0', '0.25', '0.5', '0.75', '1']);
  // Training steps labelled at round steps (one increment of 1, 2 or 5 x 10^k) between the first and the last.
  const steps = (await reward.locator('.recharts-xAxis-tick-labels text').allTextContents()).map(Number);
  expect(steps.length).toBeGreaterThanOrEqual(4);
  const round = steps.slice(1, -1);
  const by = (round[1] ?? 0) - (round[0] ?? 0);
  expect([1, 2, 5, 10, 20, 50]).toContain(by);
  expect(round.every((s, k) => s % by === 0 && (k === 0 || s - (round[k - 1] ?? 0) === by))).toBe(true);
  expect(steps.at(-1)).toBe(training - 1);
  await screenshot(page, testInfo, 'demo-run-open');

  // A later step compared with an earlier one reads earlier | later, and an improvement as +.
  await page.goto('/?run=/demo/run-index/&steps=18&vs=2');
  const compare = page.getByRole('table', { name: 'Compare step ranges' });
  await expect(compare.getByRole('columnheader')).toHaveText(['', 'steps 2', 'steps 18', 'change, later − earlier']);
  await expect(compare.getByRole('row', { name: /Reward mean/ }).getByRole('cell')).toHaveText(['0.75', '1', '+0.25']);
  await page.goBack();

  await banner.getByRole('button', { name: 'Rollouts' }).click();
  await expectLoaded(page, RUN_FILES.length * PER_STEP, 60_000);
  await expect(rolloutRows(page).first()).toContainText('r-s0000-g1-01');

  await banner.getByRole('button', { name: 'Back to the single-file demo' }).click();
  await expect(banner).not.toContainText('Demo run');
  await expectLoaded(page, 44);
});

test('the four-role view of a run rollout ends with the trainer’s update: the step it went into, its advantage, the tokens trained', async ({
  page,
}, testInfo) => {
  test.setTimeout(120_000); // 24 files to read on a loaded machine
  const params = new URLSearchParams();
  for (const f of RUN_FILES) params.append('src', `/demo/run/${f}`);
  params.set('rollout', 'r-s0005-g1-04#a-1');
  params.set('view', 'rollout');
  params.set('tab', 'roles');
  await page.goto(`/?${params}`);
  // Advantage -1.500 as lint computes it for the group (rewards 1, 1, 1, 0); 332 tokens under the loss.
  const update = page.getByRole('listitem', { name: 'trainer update 5: advantage −1.500, 332 tokens trained' });
  await expect(update).toBeVisible({ timeout: 60_000 });
  await expect(update).toContainText('update 5 · A −1.500');
  await expect(update).toContainText('332 tokens trained');
  await update.scrollIntoViewIfNeeded();
  await screenshot(page, testInfo, 'four-roles-trainer-update');
  // Step to the last event with the keyboard: it is the update.
  const events = page.getByRole('list', { name: 'Events in order' }).getByRole('listitem');
  const total = await events.count();
  await page.getByRole('button', { name: 'Next event' }).focus();
  for (let i = 0; i < total; i++) await page.keyboard.press('ArrowRight');
  await expect(update).toHaveAttribute('aria-current', 'step');
  await expect(page.getByRole('status', { name: 'Narration' })).toContainText(
    'It was sampled 1 update earlier (training_step 4), so the trainer’s log-probabilities differ from old_logprobs.',
  );
  await expect(update).toBeInViewport({ ratio: 0.95 });
  await page.waitForTimeout(400); // let the fade between past and future finish before the picture
  await screenshot(page, testInfo, 'four-roles-trainer-update-narrated');
});

test('the run page is kept while another page of the run is open: hidden there, the same charts on coming back', async ({
  page,
}, testInfo) => {
  await page.goto('/?run=/demo/run-index/');
  const banner = page.getByRole('banner');
  const reward = page.getByRole('figure', { name: 'Reward' });
  await expect(reward.locator('.recharts-line-curve')).toBeVisible({ timeout: 60_000 });
  // A mark on the drawn chart's element: a page drawn again would be new elements without it.
  await reward.evaluate((el) => el.setAttribute('data-kept', 'yes'));

  await banner.getByRole('button', { name: 'Failure modes' }).click();
  await expect(page.locator('.mode-row').first()).toBeVisible();
  // Not seen, not reachable by keyboard or a screen reader, while the other page is open.
  await expect(reward).toBeHidden();
  await expect(page.getByRole('figure', { name: 'Reward' })).toHaveCount(0);

  await banner.getByRole('button', { name: 'Run', exact: true }).click();
  await expect(reward).toBeVisible();
  await expect(reward).toHaveAttribute('data-kept', 'yes');
  await expect(reward.locator('.recharts-line-curve')).toBeVisible();
  await screenshot(page, testInfo, 'run-page-kept');
  // Its charts still answer the pointer (their handlers came back with it): a click selects the step under it.
  const box = await reward.locator('.recharts-surface').boundingBox();
  if (!box) throw new Error('no reward chart');
  await page.mouse.move(box.x + box.width * 0.62, box.y + box.height * 0.4);
  await expect(reward.locator('.recharts-tooltip-wrapper')).toContainText('training step');
  await page.mouse.down();
  await page.mouse.up();
  await expect(page).toHaveURL(/[?&]steps=\d+(&|$)/);
});
