import { expect, test } from '@playwright/test';
import { buildRollout, buildSegment, buildStep, toJsonl } from '../src/testing/builders';
import { expectLoaded, openWithButton, rolloutRows, screenshot } from './support/app';
import { payload } from './support/fixtures';

const seg = (id: string, generated: number[], tokens: string[]) =>
  buildSegment({ tool_call_id: id, generated_ids: generated, old_logprobs: generated.map((g) => -g / 100), generated_tokens: tokens });

/** A rollout of the pair: read, edit (its own fix), run the tests (its own result), and perhaps finish. */
function attempt(
  rollout_id: string,
  reward: number,
  verdict: string,
  fix: { tokens: string[]; ids: number[]; line: string },
  tests: string,
  finish: boolean,
) {
  const steps = [
    buildStep({
      tool_call_id: 'c-1',
      tool: 'read_file',
      args: { path: 'search.py' },
      observation: { status: 'ok', text: 'def search(a, t):' },
    }),
    buildStep({
      tool_call_id: 'c-2',
      tool: 'edit',
      args: { path: 'search.py', new: fix.line },
      observation: { status: 'ok', text: 'edited' },
    }),
    buildStep({ tool_call_id: 'c-3', tool: 'run_tests', args: {}, observation: { status: 'ok', text: tests } }),
    ...(finish ? [buildStep({ tool_call_id: 'c-4', tool: 'finish', args: {}, observation: { status: 'ok', text: '' } })] : []),
  ];
  const segments = [
    seg('c-1', [10, 11], ['read', ' it']),
    seg('c-2', fix.ids, fix.tokens),
    seg('c-3', [30], ['test']),
    ...(finish ? [seg('c-4', [40], ['done'])] : []),
  ];
  return buildRollout({ rollout_id, group_id: 'g-1', reward, grading: { verdict }, segments, steps });
}

const FILE = {
  name: 'pair.jsonl',
  text: toJsonl([
    attempt(
      'r-good',
      1,
      'pass',
      { ids: [20, 21, 22], tokens: ['fix', ' low', ' +1'], line: 'low = mid + 1' },
      'collected 6\n6 passed',
      true,
    ),
    attempt(
      'r-bad',
      0,
      'fail',
      { ids: [20, 25, 26], tokens: ['fix', ' high', ' -1'], line: 'high = mid - 1' },
      'collected 6\n2 failed, 4 passed',
      false,
    ),
  ]),
};

test('pick two rollouts in the run list and compare them step by step', async ({ page }, testInfo) => {
  await page.goto('/');
  await openWithButton(page, payload(FILE));
  await expectLoaded(page, 2);
  await rolloutRows(page).filter({ hasText: 'r-good' }).click();
  await page.getByRole('button', { name: 'Pick for compare' }).click();
  await rolloutRows(page).filter({ hasText: 'r-bad' }).click();
  await page.getByRole('button', { name: 'Compare with r-good#a-1' }).click();
  await expect(page).toHaveURL(/view=compare/);

  await expect(page.getByRole('region', { name: 'Rollout A' })).toContainText('r-good#a-1');
  await expect(page.getByRole('region', { name: 'Rollout A' })).toContainText('pass');
  await expect(page.getByRole('region', { name: 'Rollout B' })).toContainText('fail');
  const rows = page.getByRole('list', { name: 'Aligned steps' }).getByRole('listitem');
  await expect(rows).toHaveCount(4);
  await expect(rows.nth(0)).toContainText('=');
  await expect(rows.nth(1)).toContainText('first divergence');
  await expect(rows.nth(3)).toContainText('A only');
  // The first divergence is shown at once: the argument that changed, by line.
  const detail = page.getByRole('region', { name: 'Step difference' });
  await expect(detail).toContainText('A step 2 · B step 2');
  await expect(detail.locator('.pair__del')).toContainText('low = mid + 1');
  await expect(detail.locator('.pair__add')).toContainText('high = mid - 1');
  const gen = page.getByRole('region', { name: 'First divergent generation' });
  await expect(gen).toContainText('segment 1, token 1');
  await expect(gen).toContainText('" low"');
  await expect(gen).toContainText('" high"');
  await rows.nth(2).getByRole('button').click();
  await expect(detail.getByRole('region', { name: 'Observation' })).toContainText('2 failed, 4 passed');
  await screenshot(page, testInfo, 'compare-two-rollouts');

  // Back returns to the comparison (the pair is in the URL); the token button opens that token.
  await page.getByRole('button', { name: 'r-good#a-1' }).click();
  await expect(page).toHaveURL(/view=rollout/);
  await page.goBack();
  await gen.getByRole('button', { name: '" high"' }).click();
  await expect(page).toHaveURL(/rollout=r-bad.*tab=tokens|tab=tokens.*rollout=r-bad/);
  await expect(page).toHaveURL(/seq=1&tok=1/);
});

test('a group compares its best and worst rollouts, and the selected one with a group-mate', async ({ page }, testInfo) => {
  await page.goto('/?view=groups');
  const card = page.getByRole('region', { name: /^Group / }).first();
  await card.getByRole('button', { name: 'Compare best vs worst' }).click();
  await expect(page).toHaveURL(/view=compare/);
  await expect(page.getByRole('list', { name: 'Aligned steps' }).getByRole('listitem').first()).toBeVisible();
  await expect(page.getByRole('status')).toContainText(/First divergence|The same/);
  await screenshot(page, testInfo, 'compare-best-vs-worst');

  // This rollout against a group-mate: the selected row's group offers "vs selected" on every other row.
  await page.goto('/?view=groups&rollout=r-article%23a-1');
  const group = page.getByRole('region', { name: /^Group / }).filter({ has: page.getByRole('button', { name: 'vs selected' }) });
  await group.getByRole('button', { name: 'vs selected' }).first().click();
  await expect(page).toHaveURL(/view=compare&a=r-article#a-1|a=r-article%23a-1/);
  await expect(page.getByRole('region', { name: 'Rollout A' })).toContainText('r-article#a-1');
});
