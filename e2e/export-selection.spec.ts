import { readFileSync } from 'node:fs';
import { expect, type Page, test } from '@playwright/test';
import { expectLoaded, screenshot } from './support/app';
import { demoRecords } from './support/demo';

const records = demoRecords();
const finished = records.filter((r) => r.termination === 'finished');

interface Provenance {
  file: string;
  line: number;
  rollout_key: string;
  where: string;
}

/** Clicks the dialog's export button and reads the file the browser downloads, line by line. */
async function exportLines(page: Page, button: RegExp): Promise<{ name: string; lines: Record<string, unknown>[] }> {
  const download = page.waitForEvent('download');
  await page.getByRole('dialog').getByRole('button', { name: button }).click();
  const file = await download;
  const text = readFileSync(await file.path(), 'utf8');
  return {
    name: file.suggestedFilename(),
    lines: text
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l)),
  };
}

test('a search’s matches export from the page: the count first, then a download with each record’s provenance', async ({
  page,
}, testInfo) => {
  await page.goto('/');
  await expectLoaded(page, records.length);
  const box = page.getByRole('searchbox', { name: 'Search rollouts' });
  await box.fill('term:finished');
  await box.press('Enter');
  await expect(page.getByRole('status').first()).toContainText(`${finished.length} rollouts match`);

  await page.getByRole('button', { name: 'Export…' }).click();
  const dialog = page.getByRole('dialog', { name: `Export ${finished.length} rollouts` });
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText('Chosen by term:finished');
  await expect(dialog.getByRole('radio', { name: /v1/ })).toBeChecked();
  await expect(dialog).toContainText(`${finished.length} records`);
  await screenshot(page, testInfo, 'export-dialog');

  const v1 = await exportLines(page, new RegExp(`^Export ${finished.length} records$`));
  expect(v1.name).toBe('trajscope-export-v1.jsonl');
  expect(v1.lines).toHaveLength(finished.length);
  for (const line of v1.lines) {
    const p = line.provenance as Provenance;
    expect(p).toMatchObject({ file: 'rollouts.jsonl', where: 'term:finished' });
    // The provenance names the record's own line of the demo file, and its key.
    const at = records[p.line - 1];
    expect(line.rollout_id).toBe(at?.rollout_id);
    expect(p.rollout_key.startsWith(`${at?.rollout_id}`)).toBe(true);
    expect(line.termination).toBe('finished');
  }
  await expect(dialog.getByRole('status')).toContainText(`Wrote ${finished.length} records to trajscope-export-v1.jsonl`);

  // sft: at most the rewarded rollouts in the signal, each a conversation with its provenance.
  await dialog.getByRole('radio', { name: /sft/ }).check();
  const rewarded = finished.filter((r) => typeof r.reward === 'number' && r.reward > 0).length;
  await expect(dialog).toContainText(`up to ${rewarded} conversations`);
  const sft = await exportLines(page, /^Export sft$/);
  expect(sft.lines.length).toBeGreaterThan(0);
  expect(sft.lines.length).toBeLessThanOrEqual(rewarded);
  for (const line of sft.lines) {
    expect(Array.isArray(line.messages)).toBe(true);
    expect((line.provenance as Provenance).where).toBe('term:finished');
  }

  // parquet is the command line's: the command, query filled in.
  await dialog.getByRole('radio', { name: /parquet/ }).check();
  await expect(dialog.getByText('trajscope export rollouts.jsonl --where term:finished --as parquet --out export.parquet')).toBeVisible();
  await dialog.getByRole('button', { name: 'Close' }).click();
  await expect(dialog).toBeHidden();
});

test('the run list exports the rows its filters show', async ({ page }) => {
  await page.goto('/');
  await expectLoaded(page, records.length);
  await page
    .getByRole('search', { name: 'Filter rollouts' })
    .getByRole('button', { name: /^finished/ })
    .click();
  await page.getByRole('button', { name: 'Export…' }).click();
  const dialog = page.getByRole('dialog', { name: `Export ${finished.length} rollouts` });
  await expect(dialog).toContainText('Chosen by run list: termination finished');
  const v1 = await exportLines(page, /^Export \d+ records$/);
  expect(v1.lines.map((l) => l.rollout_id)).toEqual(finished.map((r) => r.rollout_id));
});

test('a rule file that does not parse names the rule and field and changes nothing; a good one is run', async ({ page }, testInfo) => {
  await page.goto('/');
  await expectLoaded(page, records.length);
  const bar = page.getByRole('search', { name: 'Filter rollouts' });
  const open = async (name: string, rules: unknown) => {
    const chooser = page.waitForEvent('filechooser');
    await bar.getByRole('button', { name: 'Rules file…' }).click();
    await (await chooser).setFiles({ name, mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(rules)) });
  };

  await open('bad-rules.json', { rules: [{ id: 'slow-finish', title: 'Finished late', severity: 'fatal' }] });
  await expect(bar.getByRole('alert')).toContainText('bad-rules.json: rule "slow-finish".severity:');
  expect(page.url()).not.toContain('rules=');
  await expect(bar.getByRole('checkbox', { name: 'Scanners' })).not.toBeChecked();
  await screenshot(page, testInfo, 'export-rules-error');

  await open('my-rules.json', {
    rules: [{ id: 'any-finish', title: 'Finished', severity: 'warning', when: { termination: ['finished'] } }],
  });
  await expect(bar.getByRole('alert')).toHaveCount(0);
  await expect(bar.getByRole('checkbox', { name: /Scanners/ })).toBeChecked();
  await expect(bar.getByRole('checkbox', { name: 'Scanners: my-rules.json (1 rule)' })).toBeChecked();
  expect(page.url()).toContain('rulesname=my-rules.json');
  // The files are read again with the rule: its hits are findings the code filter offers.
  await expect(
    bar.getByRole('combobox', { name: 'Finding code' }).locator('option', { hasText: `W_SCAN (${finished.length})` }),
  ).toHaveCount(1);

  await bar.getByRole('checkbox', { name: /Scanners/ }).uncheck();
  await expect(bar.getByRole('checkbox', { name: 'Scanners' })).not.toBeChecked();
  expect(page.url()).not.toContain('rules=');
});
