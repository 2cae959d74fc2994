import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect, type Page, test } from '@playwright/test';
import { createLineParser, type LineResult } from '../src/format';
import { expectLoaded, openWithButton, problemsPanel, rolloutRows, screenshot } from './support/app';

/*
 * One published file of each format the Inspect / OpenHands / tau / NeMo Gym adapters read, opened in the
 * browser as a person would (read in place from ../shared/real-data, never copied into the project).
 * Every rollout the format layer finds must appear, with no bad lines.
 */
const REAL = fileURLToPath(new URL('../../shared/real-data/', import.meta.url));
const HAS_REAL = existsSync(REAL);

function first(dir: string, ext: string): string {
  const name = readdirSync(`${REAL}${dir}`).find((f) => f.endsWith(ext));
  if (!name) throw new Error(`no ${ext} in ${dir}`);
  return `${dir}/${name}`;
}

const cases = HAS_REAL
  ? ([
      [first('inspect-ai-eval', '.eval'), 'Inspect .eval'],
      ['inspect-ai-json/2025-05-12T20-28-26-04-00_security-guide.json', 'Inspect .json'],
      ['openhands-v0-eval/output.jsonl', 'OpenHands evaluation'],
      ['openhands-v0-traj/basic.json', 'OpenHands event list'],
      ['openhands-v1-sdk/output.jsonl', 'OpenHands V1 SDK'],
      ['tau-bench/gpt-4o-airline.json', 'tau-bench'],
      [first('tau2-bench-blakeelias', '.json'), 'tau2-bench'],
      ['nemo-gym-tokens/example_rollouts.jsonl', 'NeMo Gym'],
    ] as const)
  : [];

function expected(path: string, name: string): string[] {
  const parser = createLineParser(name);
  const results: LineResult[] = [...parser.push(readFileSync(`${REAL}${path}`)), ...parser.end()];
  expect(results.filter((r) => r.kind === 'error')).toEqual([]);
  return results.flatMap((r) => (r.kind === 'rollout' ? [r.value.record.rollout_id] : []));
}

test.skip(!HAS_REAL, `../shared/real-data is absent (${REAL}): real-file import tests skipped`);

for (const [path, label] of cases) {
  test(`a published ${label} file opens whole`, async ({ page }, testInfo) => {
    const name = path.split('/').pop() ?? path;
    const ids = expected(path, name);
    expect(ids.length).toBeGreaterThan(0);
    await page.goto('/');
    await openWithButton(page, { name, mimeType: 'application/octet-stream', buffer: readFileSync(`${REAL}${path}`) });
    await expectLoaded(page, ids.length);
    await expect(problemsPanel(page)).toContainText('every line loaded');
    await expect(rolloutRows(page).first()).toBeVisible();
    await screenshot(page, testInfo, `real-${label.replace(/[^a-z0-9.-]/gi, '_')}`);
  });
}

/** Opens a published file and its first rollout. */
async function openFirstRollout(page: Page, path: string, rollouts: number): Promise<void> {
  await page.goto('/');
  const name = path.split('/').pop() ?? path;
  await openWithButton(page, { name, mimeType: 'application/octet-stream', buffer: readFileSync(`${REAL}${path}`) });
  await expectLoaded(page, rollouts);
  await rolloutRows(page).first().dblclick();
}

test('a NeMo Gym rollout with token ids shows them as a real segment', async ({ page }, testInfo) => {
  await openFirstRollout(page, 'nemo-gym-tokens/example_rollouts.jsonl', 5);
  // generation_token_ids (785) and generation_log_probs of the first rollout, not a text-only segment.
  await expect(page.getByText('785 tokens').first()).toBeVisible();
  await expect(page.getByText('109 tokens').first()).toBeVisible();
  await expect(page.getByText('Text only: the source recorded no token ids')).toHaveCount(0);
  // No tokenizer here decodes its ids, but the record has the text: the task and context read as text (issue 31).
  const task = page.getByRole('region', { name: 'Task' });
  await expect(task).toContainText('You are an expert competitive programmer');
  await expect(task).not.toContainText('No task prompt recorded');
  const context = page.locator('.scell--ctx').first();
  await expect(context).toContainText("shown as the record's messages");
  await expect(context).toContainText('You are an expert competitive programmer');
  await expect(context).not.toContainText('[#');
  await screenshot(page, testInfo, 'real-nemo-gym-tokens-rollout');
});

test('a text-only source shows each step what is new and folds what the model saw before', async ({ page }, testInfo) => {
  await openFirstRollout(page, 'tau-bench/gpt-4o-airline.json', 200);
  const contexts = page.locator('.scell--ctx');
  await expect(contexts.nth(1)).toBeVisible();
  // The second step's context begins with the first's and the call it made: folded, not the system prompt again.
  const fold = contexts.nth(1).getByRole('button', { name: /messages? seen at the step before/ });
  await expect(fold).toHaveAttribute('aria-expanded', 'false');
  await expect(contexts.nth(1).locator('.st-msg--system')).toHaveCount(0);
  await expect(contexts.nth(1).locator('.st-msg')).not.toHaveCount(0);
  await fold.click();
  await expect(contexts.nth(1).locator('.st-msg--system')).toHaveCount(1);
  await screenshot(page, testInfo, 'real-tau-bench-context-fold');
});

test('a dropped .eval archive opens (binary bytes carried as they are)', async ({ page }) => {
  const path = first('inspect-ai-eval', '.eval');
  await page.goto('/');
  const bytes = [...readFileSync(`${REAL}${path}`)];
  const dt = await page.evaluateHandle(
    ({ name, bytes }) => {
      const transfer = new DataTransfer();
      transfer.items.add(new File([new Uint8Array(bytes)], name, { type: 'application/zip' }));
      return transfer;
    },
    { name: path.split('/').pop() ?? path, bytes },
  );
  await page.getByRole('main').dispatchEvent('drop', { dataTransfer: dt });
  await expectLoaded(page, 10);
  await expect(problemsPanel(page)).toContainText('every line loaded');
});

/** Rollouts whose first step is checked in the Steps view: the tool the model called and what it returned. */
const stepCases = HAS_REAL
  ? ([
      [
        'an Inspect sample',
        'inspect-ai-json/2025-05-12T20-27-36-04-00_browser.json',
        1,
        'web_browser_go',
        '[132] link "We are now the AI Security Institute"',
      ],
      ['an OpenHands run', 'openhands-v0-eval/output.jsonl', 3, 'execute_bash', 'total 300'],
      ['a tau-bench trial', 'tau-bench/gpt-4o-airline.json', 200, 'get_user_details', 'mia.li3818@example.com'],
    ] as const)
  : [];

for (const [label, path, rollouts, tool, observation] of stepCases) {
  test(`${label} shows its first tool call and what the tool returned in the Steps view`, async ({ page }, testInfo) => {
    await openFirstRollout(page, path, rollouts);
    await expect(page.getByText(tool).first()).toBeVisible();
    await expect(page.getByText(observation).first()).toBeVisible();
    await screenshot(page, testInfo, `real-steps-${label.replace(/[^a-z0-9]/gi, '-')}`);
  });
}
