import { expect, type Page, test } from '@playwright/test';
import { expectLoaded, rolloutGrid, rolloutRows, screenshot } from './support/app';
import { demoGroups, demoRecords, isCounted } from './support/demo';

const records = demoRecords();

/** The text of one column in every rendered row, top to bottom (the demo fits in the rendered window). */
async function columnTexts(page: Page, column: string): Promise<string[]> {
  const headers = await rolloutGrid(page).getByRole('columnheader').allTextContents();
  const at = headers.findIndex((h) => h.replace(/[▲▼]/g, '').trim() === column);
  expect(at, `column ${column}`).toBeGreaterThanOrEqual(0);
  const rows = await rolloutRows(page).all();
  return Promise.all(
    rows.map((row) =>
      row
        .getByRole('gridcell')
        .nth(at)
        .textContent()
        .then((t) => (t ?? '').trim()),
    ),
  );
}

function filterBar(page: Page) {
  return page.getByRole('search', { name: 'Filter rollouts' });
}

test.beforeEach(async ({ page }) => {
  await page.goto('/');
  await expectLoaded(page, records.length);
});

test('clicking the Reward header sorts ascending, then descending, with missing rewards last', async ({ page }, testInfo) => {
  const header = rolloutGrid(page).getByRole('columnheader', { name: 'Reward' });
  await expect(header).toHaveAttribute('aria-sort', 'none');

  await header.getByRole('button').click();
  await expect(header).toHaveAttribute('aria-sort', 'ascending');
  const rewards = (await columnTexts(page, 'Reward')).map((t) => (t === '—' ? null : Number(t)));
  const numeric = rewards.filter((r) => r !== null);
  expect(numeric.length).toBeGreaterThan(1);
  expect(numeric).toEqual([...numeric].sort((a, b) => a - b));
  expect(
    rewards.slice(numeric.length).every((r) => r === null),
    'no reward after a missing one',
  ).toBe(true);
  // The last row (End) is one without a reward.
  const noReward = records.filter((r) => r.reward == null).map((r) => encodeURIComponent(`${r.rollout_id}#${r.attempt_id}`));
  await rolloutGrid(page).press('End');
  await expect(page).toHaveURL(new RegExp(`[?&]rollout=(${noReward.join('|')})(&|$)`));
  await rolloutGrid(page).press('Escape');

  await header.getByRole('button').click();
  await expect(header).toHaveAttribute('aria-sort', 'descending');
  const down = (await columnTexts(page, 'Reward')).map((t) => (t === '—' ? null : Number(t)));
  const downNumeric = down.filter((r) => r !== null);
  expect(downNumeric).toEqual([...downNumeric].sort((a, b) => b - a));
  await expect(rolloutRows(page).first()).toContainText('1.0');
  await screenshot(page, testInfo, 'run-list-sorted');

  await header.getByRole('button').click();
  await expect(header).toHaveAttribute('aria-sort', 'none');
  await rolloutGrid(page).press('Home');
  await expect(page).toHaveURL(new RegExp(`[?&]rollout=${encodeURIComponent(`${records[0]?.rollout_id}#${records[0]?.attempt_id}`)}`));
});

test('filtering by termination shows only those rollouts and says "N of M rollouts"', async ({ page }, testInfo) => {
  const excluded = records.filter((r) => r.termination === 'infra_failure');
  expect(excluded.length).toBeGreaterThan(0);

  await filterBar(page)
    .getByRole('button', { name: /^infra failure/ })
    .click();
  await expect(rolloutRows(page)).toHaveCount(excluded.length);
  for (const r of excluded) await expect(rolloutRows(page).filter({ hasText: r.rollout_id }).first()).toBeVisible();
  await expect(filterBar(page)).toContainText(`${excluded.length} of ${records.length} rollouts`);
  // Excluded rollouts stay greyed.
  await expect(rolloutRows(page).first()).toHaveClass(/is-excluded/);
  await screenshot(page, testInfo, 'run-list-filtered');

  await filterBar(page).getByRole('button', { name: 'Clear filters' }).click();
  await expect(filterBar(page)).not.toContainText(`of ${records.length} rollouts`);
  await expect(rolloutRows(page).first()).toContainText(records[0]?.rollout_id ?? '');
  await expect(page.getByRole('region', { name: 'Summary' })).toContainText(`${records.length} rollouts`);
});

test('filtering by a group finding code shows the rollouts of the groups that carry it', async ({ page }, testInfo) => {
  const zeroVariance = demoGroups(records).filter((g) => {
    const rewards = g.members.filter(isCounted).map((r) => r.reward);
    return rewards.length >= 2 && rewards.every((x) => x === rewards[0]);
  });
  const ids = zeroVariance.flatMap((g) => g.members.map((r) => r.rollout_id));
  expect(ids.length).toBeGreaterThan(0);

  await filterBar(page).getByRole('combobox', { name: 'Finding code' }).selectOption('W_ZERO_VARIANCE_GROUP');
  await expect(rolloutRows(page)).toHaveCount(ids.length);
  await expect(filterBar(page)).toContainText(`${ids.length} of ${records.length} rollouts`);
  for (const id of ids) await expect(rolloutRows(page).filter({ hasText: id })).toHaveCount(1);
  await screenshot(page, testInfo, 'run-list-finding-code');
});

test('searching ids narrows the rows; arrows move through them and Enter opens the inspector', async ({ page }, testInfo) => {
  const group = demoGroups(records).find((g) => g.members.length > 2);
  const first = group?.members[0];
  const second = group?.members[1];
  if (!group || !first || !second) throw new Error('the demo has a group of three or more');
  // The group id also names its rollouts' group column; searching it finds exactly that group.
  await filterBar(page).getByRole('searchbox', { name: 'Search ids' }).fill(group.id.toUpperCase());
  await expect(rolloutRows(page)).toHaveCount(group.members.length);
  await expect(filterBar(page)).toContainText(`${group.members.length} of ${records.length} rollouts`);

  await rolloutGrid(page).focus();
  await rolloutGrid(page).press('Home');
  await expect(page).toHaveURL(new RegExp(`[?&]rollout=${encodeURIComponent(`${first.rollout_id}#${first.attempt_id}`)}`));
  await rolloutGrid(page).press('ArrowDown');
  await expect(page).toHaveURL(new RegExp(`[?&]rollout=${encodeURIComponent(`${second.rollout_id}#${second.attempt_id}`)}`));
  await expect(rolloutRows(page).filter({ hasText: second.rollout_id })).toHaveAttribute('aria-selected', 'true');
  await screenshot(page, testInfo, 'run-list-search');

  await rolloutGrid(page).press('Escape');
  await expect(page).not.toHaveURL(/rollout=/);
  await rolloutGrid(page).press('End');
  const last = group.members.at(-1);
  await expect(page).toHaveURL(new RegExp(`[?&]rollout=${encodeURIComponent(`${last?.rollout_id}#${last?.attempt_id}`)}`));
  await rolloutGrid(page).press('Enter');
  await expect(page).toHaveURL(/[?&]view=rollout/);
});

test('the advantage column follows the GRPO / Dr. GRPO mode in the URL', async ({ page }) => {
  const advantage = rolloutGrid(page).getByRole('columnheader', { name: /^Adv\./ });
  await expect(advantage).toHaveText(/^Adv\.\s*$/);
  await filterBar(page).getByRole('button', { name: 'Dr. GRPO' }).click();
  await expect(page).toHaveURL(/[?&]adv=dr/);
  await expect(advantage).toHaveText(/Adv\. Dr\./);
  // A zero-variance-free group's first counted rollout: |r − mean| < 1, where GRPO scales it up.
  const g = demoGroups(records).find((x) => x.std !== null && x.std > 0);
  const r = g?.members.find(isCounted);
  if (!g || !r || g.mean === null) throw new Error('the demo has a group with reward variance');
  const row = rolloutRows(page).filter({ hasText: r.rollout_id }).first();
  await expect(row).toContainText(((r.reward ?? 0) - g.mean).toFixed(3));
});
