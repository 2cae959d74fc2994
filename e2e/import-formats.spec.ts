import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect, test } from '@playwright/test';
import { createLineParser, type LineResult } from '../src/format';
import { rolloutLabel } from '../src/ui/run-list/rolloutLabel';
import { expectLoaded, openWithButton, problemsPanel, rolloutRows, screenshot } from './support/app';

/*
 * The app reads other tools' rollouts directly: each adapter fixture (written from that tool's documented
 * structure, see docs/formats.md) is opened as a person would, and every rollout the format layer finds in
 * it must appear, with no bad lines.
 */
const FIXTURES = fileURLToPath(new URL('../src/format/adapters/fixtures/', import.meta.url));
const cases = [
  ['verifiers-eval/results.jsonl', 'verifiers results'],
  ['verifiers-v1/traces.jsonl', 'prime-rl traces'],
  ['rllm/episodes.json', 'rLLM episodes'],
  ['openai-chat.jsonl', 'OpenAI chat'],
  ['swe-agent/django__django-11099.traj', 'SWE-agent trajectory'],
] as const;

function expected(path: string, name: string): { ids: string[] } {
  const parser = createLineParser(name);
  const results: LineResult[] = [...parser.push(readFileSync(`${FIXTURES}${path}`)), ...parser.end()];
  return { ids: results.flatMap((r) => (r.kind === 'rollout' ? [r.value.record.rollout_id] : [])) };
}

for (const [path, label] of cases) {
  test(`a ${label} file opens directly and lists its rollouts`, async ({ page }, testInfo) => {
    const name = path.split('/').pop() ?? path;
    const { ids } = expected(path, name);
    expect(ids.length).toBeGreaterThan(0);
    await page.goto('/');
    await openWithButton(page, { name, mimeType: 'application/octet-stream', buffer: readFileSync(`${FIXTURES}${path}`) });
    await expectLoaded(page, ids.length);
    await expect(problemsPanel(page)).toContainText('every line loaded');
    // An id made from the file's name shows after it (the file is the row's context): as the row shows it.
    await expect(rolloutRows(page).first()).toContainText(rolloutLabel({ file: name, rollout_id: ids[0] ?? '' }));
    await screenshot(page, testInfo, `import-${name.replace(/[^a-z0-9.-]/gi, '_')}`);
  });
}

test('a converted chat rollout shows its text and the messages the model saw, and says token data is absent', async ({
  page,
}, testInfo) => {
  await page.goto('/');
  await openWithButton(page, { name: 'openai-chat.jsonl', mimeType: 'text/plain', buffer: readFileSync(`${FIXTURES}openai-chat.jsonl`) });
  await expectLoaded(page, 3);
  await rolloutRows(page).first().dblclick();
  await expect(page.getByText('It is 4°C and raining in Oslo.')).toBeVisible();
  await expect(
    page.getByText('Text only: the source recorded no token ids or log-probabilities for this generation.').first(),
  ).toBeVisible();
  // The final answer was generated after the tool result: that result is new in what the model saw, and
  // the call before it is folded with what the previous step saw (issue 31), one click away.
  await expect(page.getByText('{"temp_c": 4, "sky": "rain"}').last()).toBeVisible();
  const fold = page.getByRole('button', { name: /messages seen at the step before/ }).first();
  await fold.click();
  await expect(page.getByText('→ get_weather({"city": "Oslo"})').first()).toBeVisible();
  await screenshot(page, testInfo, 'import-chat-steps');
});

test('the Steps view of a text-only import says its contexts are text, not token ids', async ({ page }, testInfo) => {
  await page.goto('/');
  await openWithButton(page, { name: 'openai-chat.jsonl', mimeType: 'text/plain', buffer: readFileSync(`${FIXTURES}openai-chat.jsonl`) });
  await expectLoaded(page, 3);
  await rolloutRows(page).first().dblclick();
  await expect(page.getByText('text only: no token ids in the source').first()).toBeVisible();
  // The context column's header, above those cells, must say the same.
  const header = page.getByText('Model-visible context', { exact: false }).first();
  await expect(header).toContainText('text only: the source recorded no token ids');
  await expect(header).not.toContainText('showing token ids');
  await screenshot(page, testInfo, 'import-chat-steps-header');
});
