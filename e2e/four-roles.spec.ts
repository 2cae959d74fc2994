import { expect, type Page, test } from '@playwright/test';
import { screenshot } from './support/app';

const ARTICLE = '/?rollout=r-article%23a-1&view=rollout&tab=roles';

function events(page: Page) {
  return page.getByRole('list', { name: 'Events in order' }).getByRole('listitem');
}

function grade(page: Page) {
  return page.getByRole('listitem', { name: /^private grade: pass, R = 1 — grader → trainer only, never to the model$/ });
}

function narration(page: Page) {
  return page.getByRole('status', { name: 'Narration' });
}

test('the design article’s rollout shows five role lanes, observations to the model and a private grade to the trainer', async ({
  page,
}, testInfo) => {
  await page.goto(ARTICLE);

  const lanes = page.getByRole('list', { name: 'Roles' }).getByRole('listitem');
  await expect(lanes).toHaveCount(5);
  for (const [i, name] of ['model', 'harness', 'environment', 'grader', 'trainer'].entries())
    await expect(lanes.nth(i)).toContainText(name);

  // Six steps: each observation goes environment → harness → model, except the last (after finish), which the model never reads.
  const observations = events(page).filter({ has: page.locator('.flow--observation') });
  await expect(observations).toHaveCount(6);
  await expect(
    page.getByRole('listitem', { name: /^observation \(step 3\): 2 passed, 1 over budget — environment → harness → model$/ }),
  ).toBeVisible();
  await expect(page.getByRole('listitem', { name: /^observation \(step 6\): submitted — environment → harness$/ })).toBeVisible();

  // The private grade is its own flow, named apart from every observation and drawn dashed in another colour.
  await expect(grade(page)).toHaveCount(1);
  const style = async (flow: string) =>
    page
      .locator(`.flow--${flow} line`)
      .first()
      .evaluate((el) => {
        const s = getComputedStyle(el);
        return { stroke: s.stroke, dash: s.strokeDasharray };
      });
  const obs = await style('observation');
  const priv = await style('private-grade');
  expect(priv.stroke).not.toBe(obs.stroke);
  expect(obs.dash).toBe('none');
  expect(priv.dash).not.toBe('none');
  const legend = page.getByRole('list', { name: 'Legend' });
  await expect(legend).toContainText('observation');
  await expect(legend).toContainText('private grade');
  await expect(legend).toContainText('to the trainer only, never to the model');

  await expect(page.getByRole('listitem', { name: /^trainer consumes the trajectory and R = 1$/ })).toBeVisible();
  await screenshot(page, testInfo, 'four-roles-overview');
});

test('play steps through the rollout, narrating and highlighting each event', async ({ page }, testInfo) => {
  await page.goto(ARTICLE);
  // Six steps × (generate, dispatch, execute, observe), then grade, private grade, train.
  const total = 27;
  await expect(events(page)).toHaveCount(total);
  await expect(narration(page)).toContainText('Press Play');

  await page.getByRole('button', { name: 'Play' }).click();
  await expect(narration(page)).toContainText(`1 / ${total}`);
  await expect(narration(page)).toContainText('The model samples');
  await expect(events(page).nth(0)).toHaveAttribute('aria-current', 'step');
  // It advances by itself while playing.
  await expect(narration(page)).toContainText(`2 / ${total}`, { timeout: 5000 });
  await expect(narration(page)).toContainText('The harness parses the call and dispatches read_file(search.py)');
  await page.getByRole('button', { name: 'Pause' }).click();

  // Stepping by keyboard: the buttons are focusable, and Home / arrow keys work inside the toolbar.
  await page.getByRole('button', { name: 'Next event' }).focus();
  await page.keyboard.press('Home');
  await expect(narration(page)).toContainText('Press Play');
  await page.keyboard.press('Enter');
  await expect(narration(page)).toContainText(`1 / ${total}`);
  for (let i = 1; i < 7; i++) await page.keyboard.press('ArrowRight');
  await expect(narration(page)).toContainText(`7 / ${total}`);
  await expect(narration(page)).toContainText(
    "The harness executes edit(search.py) — the environment's file changes: “low = mid” → “low = mid + 1”.",
  );
  const edit = page.getByRole('listitem', { name: 'environment executes edit(search.py) (step 2)' });
  await expect(edit).toHaveAttribute('aria-current', 'step');
  // The current event is scrolled to the middle of the view.
  await expect(edit).toBeInViewport({ ratio: 0.95 });
  await page.waitForTimeout(400); // let the fade between past and future finish before the picture
  await screenshot(page, testInfo, 'four-roles-playing');

  for (let i = 7; i < 25; i++) await page.keyboard.press('ArrowRight');
  await expect(narration(page)).toContainText(`25 / ${total}`);
  await expect(narration(page)).toContainText('The grader applies the submitted artifact');
  await page.keyboard.press('ArrowRight');
  await expect(narration(page)).toContainText('The private grade goes to the trainer only, never back to the model');
  await expect(grade(page)).toBeInViewport({ ratio: 0.95 });
  await page.waitForTimeout(400);
  await screenshot(page, testInfo, 'four-roles-private-grade');

  await page.getByRole('button', { name: 'Reset' }).click();
  await expect(narration(page)).toContainText('Press Play');
  await expect(page.locator('[aria-current="step"]')).toHaveCount(0);
});

test('an infrastructure failure ends at the harness and environment and never reaches the trainer', async ({ page }, testInfo) => {
  await page.goto('/?rollout=r-infra%23a-1&view=rollout&tab=roles');
  const end = page.getByRole('listitem', {
    name: /^infra failure: ends at the harness and environment, never reaches the trainer's policy signal$/,
  });
  await expect(end).toBeVisible();
  await expect(end).toContainText("never reaches the trainer's policy signal");
  await end.scrollIntoViewIfNeeded();
  await expect(page.getByRole('listitem', { name: /^private grade/ })).toHaveCount(0);
  await expect(page.getByRole('listitem', { name: /^trainer consumes/ })).toHaveCount(0);
  await expect(narration(page)).toContainText('never reaching the trainer');
  await screenshot(page, testInfo, 'four-roles-infra');
});
