import { expect, test, type Page } from '@playwright/test';

import { expectAccessible } from '../fixtures/a11y';
import { signIn } from '../fixtures/auth';
import { DEVOPS_URL } from '../fixtures/emulators';
import { screenshotsFolder } from '../fixtures/paths';

const SHOTS = screenshotsFolder('drift');

const shot = (page: Page, name: string) =>
  page.screenshot({ path: `${SHOTS}/${name}.png`, animations: 'disabled' });

/**
 * Issue 28 (ADR 063): the scheduled drift check on `npm start`'s stack. The DevOps emulator's
 * clock moves past the pipeline's 5-minute cron, its scheduler runs the drift check of every
 * client that is due, and the Fleet shows ABC's drift (the tenant emulator's sample drift); the
 * client's drift page lists each object with its property changes and who changed it.
 */
test('drift: the scheduled check records drift, the Fleet shows it, the client page lists it', async ({
  page,
}) => {
  test.setTimeout(240_000);
  const advanced = await fetch(`${DEVOPS_URL}/_emulator/clock/advance`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ minutes: 6 }),
  });
  expect(advanced.status).toBe(200);
  const { runs } = (await advanced.json()) as { runs: { cron: string }[] };
  expect(runs.map((r) => r.cron)).toContain('*/5 * * * *');

  await page.setViewportSize({ width: 1400, height: 900 });
  await signIn(page, '/fleet');
  const grid = page.getByRole('grid', { name: 'Fleet' });
  await expect(grid).toBeVisible({ timeout: 90_000 });
  const abc = grid
    .getByRole('row')
    .filter({ has: page.getByRole('link', { name: 'ABC', exact: true }) });
  // the scheduled run takes its time: reload until its result is stored. The sample drifts 4 of
  // ABC's objects; journeys that ran before this one on the same stack may have changed more.
  let drifted = 0;
  await expect(async () => {
    await page.getByRole('button', { name: 'Refresh' }).click();
    const badge = abc.getByText(/^Drifted: \d+$/);
    await expect(badge).toBeVisible({ timeout: 5_000 });
    drifted = Number(/\d+/.exec((await badge.textContent()) ?? '')?.[0] ?? 0);
    expect(drifted).toBeGreaterThanOrEqual(4);
  }).toPass({ timeout: 120_000 });
  await expect(abc.getByText(/^by .+@.+, \d+ \w+ \d{4} \d\d:\d\d$/)).toBeVisible();
  await page.getByRole('combobox', { name: 'Drift' }).click();
  await page.getByRole('option', { name: 'Drifted' }).click();
  await expect(page).toHaveURL(/drift=drifted/);
  await shot(page, '01-fleet-drift');
  await expectAccessible(page, 'fleet with drift');

  // keyboard: the drift link of ABC opens its drift page
  await abc.getByRole('link', { name: `Drifted: ${drifted}, drift of ABC` }).focus();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/fleet\/ABC\/drift$/);
  const table = page.getByRole('table', { name: 'Drifted objects' });
  await expect(table.getByRole('row')).toHaveCount(drifted + 1);
  await expect(
    table.getByText(/^state: ".+" → "enabledForReportingButNotEnforced"$/),
  ).toBeVisible();
  await expect(table.getByText('Removed from the tenant')).toBeVisible();
  // who and when, from the tenant's audit logs
  await expect(table.getByText(/Update conditional access policy/)).toBeVisible();
  await shot(page, '02-client-drift');
  await expectAccessible(page, 'client drift');
  await page.setViewportSize({ width: 1024, height: 768 });
  await shot(page, '03-client-drift-1024');
  await expectAccessible(page, 'client drift at 1024');
});
