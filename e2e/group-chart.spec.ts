import { expect, type Page, test } from '@playwright/test';
import { buildRollout, toJsonl } from '../src/testing/builders';
import { expectLoaded, openWithButton, screenshot } from './support/app';
import { type DemoGroup, demoGroups, expectedAdvantage, isCounted, rolloutLabel } from './support/demo';

const groups = demoGroups();

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function chart(page: Page) {
  return page.getByRole('figure', { name: 'Reward per rollout by group' });
}

/** The chart's point for a rollout: its accessible name starts with `id · attempt in group:`. */
function point(page: Page, g: DemoGroup, label: string) {
  return chart(page).getByRole('button', { name: new RegExp(`^${escapeRegExp(label)} in ${escapeRegExp(g.id)}:`) });
}

function groupTable(page: Page, g: DemoGroup) {
  return page.getByRole('table', { name: `Rollouts in ${g.id}` });
}

/** The advantage column of a group's table, one text per rollout in file order. */
async function expectAdvantages(page: Page, g: DemoGroup, drGrpo: boolean) {
  const rows = groupTable(page, g)
    .getByRole('row')
    .filter({ has: page.getByRole('cell') });
  await expect(rows).toHaveCount(g.members.length);
  for (const [i, r] of g.members.entries()) {
    const row = rows.nth(i);
    await expect(row.getByRole('cell').first()).toHaveText(rolloutLabel(r));
    await expect(row.getByRole('cell').nth(3)).toHaveText(expectedAdvantage(g, r, drGrpo));
  }
}

test('the groups chart draws a row of points per GRPO group, flags the zero-variance group, and draws excluded rollouts hollow', async ({
  page,
}, testInfo) => {
  expect(groups.length, 'the demo has GRPO groups').toBeGreaterThan(1);
  await page.goto('/?view=groups');
  await expect(chart(page)).toBeVisible();

  for (const g of groups) {
    await expect(chart(page).getByText(g.id, { exact: true })).toBeVisible();
    for (const r of g.members) await expect(point(page, g, rolloutLabel(r))).toHaveCount(1);
  }

  const zeroVariance = groups.filter((g) => {
    const rewards = g.members.filter(isCounted).map((r) => r.reward);
    return rewards.length >= 2 && rewards.every((x) => x === rewards[0]);
  });
  expect(zeroVariance.length, 'the demo has a zero-variance group').toBeGreaterThan(0);
  for (const g of groups) {
    const card = page.getByRole('region', { name: `Group ${g.id}` });
    if (zeroVariance.includes(g)) {
      await expect(card).toContainText('zero variance');
      await expect(card).toContainText('W_ZERO_VARIANCE_GROUP');
      await expect(card).toContainText('All rewards in the group are equal: no learning signal');
    } else {
      await expect(card).not.toContainText('zero variance');
    }
  }
  await expect(page.getByRole('region', { name: 'Summary across groups' })).toContainText(
    `${zeroVariance.length} of ${groups.length} (${Math.round((100 * zeroVariance.length) / groups.length)}%)`,
  );

  const excluded = groups.flatMap((g) => g.members.filter((r) => !isCounted(r)).map((r) => ({ g, r })));
  expect(excluded.length, 'the demo has excluded rollouts').toBeGreaterThan(0);
  for (const { g, r } of excluded) {
    const p = point(page, g, rolloutLabel(r));
    await expect(p).toHaveAttribute('data-hollow', 'true');
    await expect(p).toHaveAccessibleName(/not counted \(hollow\)$/);
  }
  for (const g of groups) {
    const counted = g.members.find(isCounted);
    if (counted) await expect(point(page, g, rolloutLabel(counted))).toHaveAttribute('data-hollow', 'false');
  }
  await expect(page.getByRole('list', { name: 'Legend' })).toContainText('hollow: not counted');
  await screenshot(page, testInfo, 'group-chart');
});

test('toggling GRPO to Dr. GRPO shows r − mean as each rollout’s advantage, and the mode is in the URL', async ({ page }, testInfo) => {
  await page.goto('/?view=groups');
  for (const g of groups) await expectAdvantages(page, g, false);

  await page.getByRole('button', { name: 'Dr. GRPO' }).click();
  await expect(page).toHaveURL(/[?&]adv=dr/);
  await expect(page.getByRole('button', { name: 'Dr. GRPO' })).toHaveAttribute('aria-pressed', 'true');
  for (const g of groups) {
    await expect(groupTable(page, g).getByRole('columnheader', { name: 'Advantage (Dr. GRPO)' })).toBeVisible();
    await expectAdvantages(page, g, true);
  }

  // The tooltip of a point shows the same number.
  const g = groups.find((x) => x.members.some(isCounted) && x.std !== 0) ?? groups[0];
  const r = g?.members.find(isCounted);
  if (!g || !r) throw new Error('the demo has a counted rollout');
  await point(page, g, rolloutLabel(r)).hover();
  await expect(page.getByText(`advantage (Dr. GRPO) ${expectedAdvantage(g, r, true)}`)).toBeVisible();
  await screenshot(page, testInfo, 'group-chart-dr-grpo');

  await page.getByRole('button', { name: 'GRPO', exact: true }).click();
  await expect(page).not.toHaveURL(/adv=/);
  for (const x of groups) await expectAdvantages(page, x, false);
});

test('clicking a point or a table row opens that rollout’s inspector', async ({ page }, testInfo) => {
  const g = groups.find((x) => x.members.filter(isCounted).length > 1);
  const [first, second] = g?.members.filter(isCounted) ?? [];
  if (!g || !first || !second) throw new Error('the demo has a group with two counted rollouts');

  await page.goto('/?view=groups');
  await point(page, g, rolloutLabel(first)).click();
  await expect(page).toHaveURL(/[?&]view=rollout/);
  await expect(page).toHaveURL(new RegExp(`[?&]rollout=${escapeRegExp(encodeURIComponent(`${first.rollout_id}#${first.attempt_id}`))}`));

  await page.goBack();
  await expect(chart(page)).toBeVisible();
  await groupTable(page, g)
    .getByRole('row')
    .filter({ hasText: rolloutLabel(second) })
    .click();
  await expect(page).toHaveURL(/[?&]view=rollout/);
  await expect(page).toHaveURL(new RegExp(`[?&]rollout=${escapeRegExp(encodeURIComponent(`${second.rollout_id}#${second.attempt_id}`))}`));
  await screenshot(page, testInfo, 'group-open-rollout');
});

/** The size the groups view is stated at: it pages, and sorting brings the groups worth a look forward. */
const MANY_GROUPS = 500;

test(`${MANY_GROUPS} groups are paged, and sorting by zero variance or by findings brings those groups to the first page`, async ({
  page,
}, testInfo) => {
  // Every 50th group has equal rewards; every 70th mixes policy versions.
  const records = Array.from({ length: MANY_GROUPS }, (_, g) =>
    Array.from({ length: 8 }, (_, k) =>
      buildRollout({
        rollout_id: `r-${g}-${k}`,
        task_id: `task-${g}`,
        group_id: `grp-${String(g).padStart(3, '0')}`,
        policy_version: g % 70 === 3 && k === 0 ? 'v-old' : 'v-1',
        reward: g % 50 === 7 ? 1 : (k + g) % 3 === 0 ? 1 : 0,
      }),
    ),
  ).flat();
  await page.goto('/');
  await openWithButton(page, { name: 'many-groups.jsonl', mimeType: 'application/x-ndjson', buffer: Buffer.from(toJsonl(records)) });
  await expectLoaded(page, records.length, 20_000);
  await page.getByRole('banner').getByRole('button', { name: 'Groups' }).click();

  const pager = page.getByRole('navigation', { name: 'Group pages' });
  await expect(pager).toContainText(`groups 1–12 of ${MANY_GROUPS}`);
  await expect(chart(page).getByRole('button')).toHaveCount(12 * 8);
  await pager.getByRole('button', { name: 'next ›' }).click();
  await expect(pager).toContainText(`groups 13–24 of ${MANY_GROUPS}`);

  const zeroVariance = Array.from({ length: MANY_GROUPS }, (_, g) => g).filter((g) => g % 50 === 7);
  await page.getByRole('combobox', { name: 'Sort groups' }).selectOption({ label: 'Zero-variance first' });
  await expect(pager).toContainText(`groups 1–12 of ${MANY_GROUPS}`);
  const cards = page.getByRole('region', { name: /^Group grp-/ });
  for (const [i, g] of zeroVariance.entries()) await expect(cards.nth(i)).toContainText(`grp-${String(g).padStart(3, '0')}`);
  await expect(cards.nth(zeroVariance.length)).not.toContainText('zero variance');

  // The summary's finding buttons keep only the groups with that finding.
  const mixed = Array.from({ length: MANY_GROUPS }, (_, g) => g).filter((g) => g % 70 === 3);
  await page
    .getByRole('region', { name: 'Summary across groups' })
    .getByRole('button', { name: /mixed policy/ })
    .click();
  await expect(pager).toContainText(`groups 1–${mixed.length} of ${mixed.length}`);
  await expect(cards).toHaveCount(mixed.length);
  for (const card of await cards.all()) await expect(card).toContainText('mixed policy');
  await screenshot(page, testInfo, 'group-chart-many');
});
