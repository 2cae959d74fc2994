import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, type Page, test } from '@playwright/test';
import { gunzipSync } from 'fflate';
import { rolloutRows, screenshot } from './support/app';
import { type StaticSite, serveStatic } from './support/staticSite';

const DEMO_RUN = fileURLToPath(new URL('../public/demo/run/', import.meta.url));
const FILES = ['step_0000', 'step_0001'];

/** Rollout ids with their regression counts, as `trajscope lint` reports them: the count every view must show. */
function lintRegressions(run: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const f of FILES) {
    const report = JSON.parse(
      execFileSync(process.execPath, ['bin/trajscope.mjs', 'lint', join(run, `${f}.jsonl`), '--json'], { encoding: 'utf8' }),
    ) as { rollouts: { rollout_id: string; regressions: unknown[] }[] };
    for (const r of report.rollouts) out.set(r.rollout_id, r.regressions.length);
  }
  return out;
}

let siteDir: string;
let regressions: Map<string, number>;
test.beforeAll(() => {
  const dir = mkdtempSync(join(tmpdir(), 'trajscope-e2e-run-agrees-'));
  const run = join(dir, 'run');
  mkdirSync(run);
  for (const f of FILES) writeFileSync(join(run, `${f}.jsonl`), gunzipSync(readFileSync(join(DEMO_RUN, `${f}.jsonl.gz`))));
  execFileSync(process.execPath, ['bin/trajscope.mjs', 'bundle', run, '--out', join(dir, 'site'), '--jobs', '1'], { stdio: 'pipe' });
  siteDir = join(dir, 'site');
  regressions = lintRegressions(run);
});

async function openList(page: Page, site: StaticSite) {
  await page.goto(site.base);
  await expect(page.getByRole('region', { name: 'Run' })).toContainText('32 rollouts', { timeout: 30_000 });
  await page.getByRole('banner').getByRole('button', { name: 'Rollouts' }).click();
  await expect(rolloutRows(page)).toHaveCount(32);
}

/** Marks matching `label` in every step row, counted once per row, read while the Steps list scrolls through. */
async function marksThroughout(page: import('@playwright/test').Page, label: RegExp): Promise<number> {
  const steps = page.getByRole('region', { name: 'Rollout steps' });
  const perRow = new Map<string, number>();
  for (let i = 0; i < 200; i++) {
    const rows = await steps
      .locator('li[aria-label^="Step "]')
      .evaluateAll(
        (items, source) =>
          items.map((li) => [
            li.getAttribute('aria-label') ?? '',
            [...li.querySelectorAll('*')].filter((e) => e.childNodes[0]?.nodeType === 3 && new RegExp(source).test(e.textContent ?? ''))
              .length,
          ]) as [string, number][],
        label.source,
      );
    for (const [row, count] of rows) perRow.set(row, Math.max(perRow.get(row) ?? 0, count));
    const done = await steps.evaluate((el) => {
      const end = el.scrollTop + el.clientHeight >= el.scrollHeight - 1;
      el.scrollTop += el.clientHeight * 0.8;
      return end;
    });
    if (done) break;
    await page.waitForTimeout(50);
  }
  return [...perRow.values()].reduce((a, b) => a + b, 0);
}

test('a run’s rollout has one count of regressions: the list, its Steps view, compare and search agree (issue 31)', async ({
  page,
}, testInfo) => {
  test.setTimeout(120_000);
  const id = 'r-s0000-g1-02';
  const other = 'r-s0000-g3-01';
  const n = regressions.get(id) ?? 0;
  expect(n).toBe(3);
  const site = await serveStatic(siteDir, { ranges: true });
  try {
    await openList(page, site);
    // The list's detail pane: the index's count.
    await rolloutRows(page).filter({ hasText: id }).click();
    const detail = page.getByRole('complementary', { name: 'Rollout details' });
    await expect(detail).toContainText(`Regressions${n}`);

    // Its Steps view marks each one (read by range, analysed as a loaded file's rollout is).
    await rolloutRows(page).filter({ hasText: id }).dblclick();
    await expect(page.getByRole('tab', { name: 'Steps', selected: true })).toBeVisible();
    const steps = page.getByRole('region', { name: 'Rollout steps' });
    await expect(steps.getByText(/^regression:/).first()).toBeVisible();
    // The list is virtualized: read every row's marks while scrolling it from top to bottom.
    expect(await marksThroughout(page, /^regression:/)).toBe(n);
    await steps.evaluate((el) => {
      el.scrollTop = 0;
    });
    await screenshot(page, testInfo, 'run-mode-steps-regressions');
    const keyA = new URL(page.url()).searchParams.get('rollout') ?? '';

    // Compare says the same for both sides.
    await page.goBack();
    await rolloutRows(page).filter({ hasText: other }).dblclick();
    await expect(page.getByRole('tab', { name: 'Steps', selected: true })).toBeVisible();
    const keyB = new URL(page.url()).searchParams.get('rollout') ?? '';
    const url = new URL(page.url());
    url.searchParams.delete('rollout');
    url.searchParams.delete('tab');
    url.searchParams.set('view', 'compare');
    url.searchParams.set('a', keyA);
    url.searchParams.set('b', keyB);
    await page.goto(url.toString());
    for (const [side, count] of [
      ['A', n],
      ['B', regressions.get(other)],
    ] as const) {
      const facts = page.getByRole('region', { name: `Rollout ${side}` });
      await expect(facts.locator('dt', { hasText: 'regressions' }).locator('+ dd')).toHaveText(String(count));
    }
    await screenshot(page, testInfo, 'run-mode-compare-regressions');

    // Search has:regression finds every rollout lint counts regressions in, and none other.
    const box = page.getByRole('searchbox', { name: 'Search rollouts' });
    await box.fill('has:regression');
    await box.press('Enter');
    const expected = [...regressions].filter(([, k]) => k > 0).map(([rid]) => rid);
    expect(expected.length).toBeGreaterThan(2);
    await expect(page.getByRole('status')).toContainText(`${expected.length} rollouts match`);
    const results = page.getByRole('list', { name: 'Matching rollouts' }).getByRole('listitem');
    await expect(results).toHaveCount(expected.length);
    const texts = (await results.allTextContents()).join('\n');
    for (const rid of expected) expect(texts).toContain(rid);
    await screenshot(page, testInfo, 'run-mode-search-regressions');
  } finally {
    await site.close();
  }
});
