import { expect, type Page } from '@playwright/test';
import { rolloutRows } from './app';

/** The steps view's list of rows (virtualized: only rows near the view exist). */
export function stepsList(page: Page) {
  return page.getByRole('list', { name: 'Steps' });
}

/** The row of a 1-based step number. */
export function stepRow(page: Page, step: number) {
  return stepsList(page).getByRole('listitem', { name: `Step ${step}`, exact: true });
}

/** The lane after the last step that holds the grader's private verdict. */
export function graderLane(page: Page) {
  return page.getByRole('region', { name: 'Grader verdict' });
}

/**
 * Opens a demo rollout's steps view by its link (`rollout_id#attempt_id`), and by default waits until its
 * contexts are decoded: decoding changes row heights, and a click aimed at a row that then moves can land
 * on its neighbour (seen once under a heavily loaded machine). `{ decoded: false }` for tests of the
 * moments before that. `timeout` for a page whose CPU a test slows down.
 */
export async function gotoSteps(
  page: Page,
  key: string,
  params = '',
  { decoded = true, timeout = 5_000 }: { decoded?: boolean; timeout?: number } = {},
): Promise<void> {
  await page.goto(`/?rollout=${encodeURIComponent(key)}&view=rollout${params}`);
  await expect(stepsList(page)).toBeVisible({ timeout });
  if (decoded) await waitForTokenizer(page);
}

/** From the run list: selects a rollout and opens its inspector on the Steps tab. */
export async function openSteps(page: Page, rolloutId: string): Promise<void> {
  await rolloutRows(page).filter({ hasText: rolloutId }).first().click();
  await page.getByRole('button', { name: 'Open inspector' }).click();
  await expect(stepsList(page)).toBeVisible();
}

/** Waits until contexts are decoded with the Qwen3 tokenizer (a lazily loaded 5 MB chunk). */
export async function waitForTokenizer(page: Page): Promise<void> {
  await expect(page.getByText('decoded with the bundled Qwen3 tokenizer')).toBeVisible({ timeout: 20_000 });
}

/**
 * Holds back the Qwen3 tokenizer chunk (named in vite.config.ts) until the returned function is called,
 * to play a slow load: contexts stay token ids, then decode and change the rows' heights.
 */
export async function holdTokenizer(page: Page): Promise<() => void> {
  let release = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route('**/assets/qwen3-tokens-*.bin', async (route) => {
    await held;
    await route.continue();
  });
  return release;
}
