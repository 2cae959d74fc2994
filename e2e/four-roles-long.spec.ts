import { expect, test } from '@playwright/test';
import { buildChain, buildRollout, toJsonl } from '../src/testing/builders';
import { screenshot } from './support/app';

test('a rollout of 2,000 steps draws only the events near the view, and playback brings any event into it', async ({ page }, testInfo) => {
  const tools = Array.from({ length: 2000 }, (_, i) => ({ tool: i % 2 ? 'run_tests' : 'read_file' }));
  const body = toJsonl([buildRollout({ rollout_id: 'r-long', ...buildChain(tools) })]);
  await page.route(
    (url) => url.pathname === '/fixtures/long.jsonl',
    (route) => route.fulfill({ status: 200, contentType: 'application/x-ndjson', body }),
  );
  await page.goto('/?src=/fixtures/long.jsonl&rollout=r-long%23a-1&view=rollout&tab=roles');
  const narration = page.getByRole('status', { name: 'Narration' });
  const events = page.getByRole('list', { name: 'Events in order' }).getByRole('listitem');
  // A 2,000-step record takes a few seconds to expand beside another heavy test.
  await expect(narration).toContainText(/^[\d,]+ events/, { timeout: 20_000 });
  const total = Number((await narration.textContent())?.match(/^([\d,]+) events/)?.[1]?.replace(/,/g, ''));
  expect(total).toBeGreaterThan(8000);
  // Every event keeps its place in the whole list for a screen reader, though few are in the page.
  await expect(events.first()).toHaveAttribute('aria-setsize', String(total));
  const drawn = await events.count();
  expect(drawn).toBeGreaterThan(10);
  expect(drawn).toBeLessThan(200);

  // Stepping far past what is drawn: the current event is drawn, current and in view.
  await page.getByRole('button', { name: 'Next event' }).focus();
  await page.keyboard.press('Enter');
  for (let i = 0; i < 120; i++) await page.keyboard.press('ArrowRight');
  await expect(narration).toContainText(`121 / ${total.toLocaleString('en-US')}`);
  const current = page.locator('[aria-current="step"]');
  await expect(current).toHaveAttribute('aria-posinset', '121');
  await expect(current).toBeInViewport({ ratio: 0.9 });
  await screenshot(page, testInfo, 'four-roles-long');

  // Scrolling to the end draws the end: the trainer consumes the trajectory.
  await page.getByRole('tabpanel').evaluate((el) => el.scrollTo(0, el.scrollHeight));
  await expect(page.getByRole('listitem', { name: /^trainer consumes the trajectory/ })).toBeInViewport();
  expect(await events.count()).toBeLessThan(200);
});
