import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect, type Page, type TestInfo } from '@playwright/test';

const SCREENSHOTS = fileURLToPath(new URL('../../test-results/screenshots/', import.meta.url));

/** Saves a full-window screenshot to test-results/screenshots/<name>.png and attaches it to the report. */
export async function screenshot(page: Page, testInfo: TestInfo, name: string): Promise<void> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  const path = `${SCREENSHOTS}${name}.png`;
  await page.screenshot({ path });
  await testInfo.attach(name, { path, contentType: 'image/png' });
}

type FilePayload = { name: string; mimeType: string; buffer: Buffer };

/** Opens files the way a person does: the Open button, then the file chooser. */
export async function openWithButton(page: Page, files: FilePayload | FilePayload[]): Promise<void> {
  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('banner').getByRole('button', { name: 'Open files…' }).click();
  await (await chooser).setFiles(files);
}

export function rolloutGrid(page: Page) {
  return page.getByRole('grid', { name: 'Rollouts' });
}

/** Data rows only (the header row has no gridcell). */
export function rolloutRows(page: Page) {
  return rolloutGrid(page)
    .getByRole('row')
    .filter({ has: page.getByRole('gridcell') });
}

export function problemsPanel(page: Page) {
  return page.getByRole('region', { name: 'Problems' });
}

/** Waits for a load to finish: the summary appears with the expected rollout count. */
export async function expectLoaded(page: Page, rollouts: number, timeout?: number): Promise<void> {
  const text = `${rollouts.toLocaleString('en-US')} rollout${rollouts === 1 ? '' : 's'}`;
  await expect(page.getByRole('region', { name: 'Summary' })).toContainText(text, timeout === undefined ? {} : { timeout });
}
