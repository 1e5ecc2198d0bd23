import { expect, test, type Page } from '@playwright/test';

import { expectAccessible } from '../fixtures/a11y';
import { signIn } from '../fixtures/auth';
import { screenshotsFolder } from '../fixtures/paths';

const SHOTS = screenshotsFolder('fleet');

const shot = (page: Page, name: string) =>
  page.screenshot({ path: `${SHOTS}/${name}.png`, animations: 'disabled' });

test('fleet: every client with its figures and trend, clients without backups or a capture say so, a row opens its report', async ({
  page,
}) => {
  test.setTimeout(180_000);
  await page.setViewportSize({ width: 1400, height: 900 });
  await signIn(page, '/fleet');
  await expect(page.getByRole('heading', { name: 'Fleet', exact: true })).toBeVisible();
  const grid = page.getByRole('grid', { name: 'Fleet' });
  await expect(grid).toBeVisible({ timeout: 90_000 });
  for (const client of ['ABC', 'CON', 'FAB', 'NWT', 'WGB', 'WWI']) {
    await expect(grid.getByRole('link', { name: client, exact: true })).toBeVisible();
  }
  const summary = page.getByRole('region', { name: 'Fleet summary' });
  await expect(summary.getByText('Worst deviations across the fleet')).toBeVisible();
  // WWI only has a backup tag that breaks the naming rule: never shown healthy, and says why
  const wwi = grid.getByRole('row').filter({ has: page.getByRole('link', { name: 'WWI' }) });
  await expect(wwi.getByText('No backups: the 24/48 h backup rule fails.')).toBeVisible();
  await expect(wwi.getByText('Critical', { exact: true }).first()).toBeVisible();
  // WGB deploys apps but its configuration was never captured: it says what is missing
  const wgb = grid.getByRole('row').filter({ has: page.getByRole('link', { name: 'WGB' }) });
  await expect(
    wgb.getByText('No configuration captured yet: compliance cannot be computed.'),
  ).toBeVisible();
  await expect(wgb.getByText('No capture recorded.')).toBeVisible();
  await expect(wgb.getByText('Compliant', { exact: true })).toHaveCount(0);
  // nothing of it can be judged: Data missing, never Critical for backups it cannot have yet
  await expect(wgb.getByText('Data missing', { exact: true }).first()).toBeVisible();
  await expect(wgb.getByText('Critical', { exact: true })).toHaveCount(0);
  // the sparklines arrive with the trends
  await expect(grid.getByLabel(/^Compliance of ABC went from \d+% to \d+%/)).toBeVisible({
    timeout: 60_000,
  });
  await shot(page, '01-fleet');
  await expectAccessible(page, 'fleet');

  // filter, then sort by baseline compliance
  await page.getByRole('searchbox').fill('FAB');
  // other journeys may have onboarded more clients meanwhile
  await expect(page.getByText(/^1 of \d+ clients shown$/)).toBeVisible();
  await page.getByRole('searchbox').fill('');
  await grid.getByRole('columnheader', { name: 'Baseline' }).click();
  await expect(grid.getByRole('columnheader', { name: 'Baseline' })).toHaveAttribute(
    'aria-sort',
    'ascending',
  );

  // the per-client chart
  await page.getByRole('button', { name: 'Show the trend of ABC' }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByText('Compliance trend of ABC')).toBeVisible();
  await expect(dialog.getByText(/\d+ points: merges to main touching Clients\/ABC/)).toBeVisible({
    timeout: 60_000,
  });
  await shot(page, '02-trend');
  await expectAccessible(page, 'fleet trend');
  await dialog.getByRole('button', { name: 'Close' }).click();

  // the missing row, close up
  await wgb.scrollIntoViewIfNeeded();
  await wgb.screenshot({ path: `${SHOTS}/03-missing-row.png`, animations: 'disabled' });

  // WGB's row opens an empty Baseline Compliance, not an error
  await grid.getByRole('link', { name: 'WGB', exact: true }).click();
  await expect(page).toHaveURL(/\/capture-management\/WGB\?view=baseline$/);
  await expect(page.getByText('No Configuration Captured')).toBeVisible({ timeout: 30_000 });
  await expect(page.getByText('Failed to Load Comparison')).toHaveCount(0);
  await shot(page, '04-no-configuration');
  await expectAccessible(page, 'baseline compliance without configuration');
  // the client chooser lists it too, saying what it lacks (ADR 054), and it has no captures yet
  await expect(page.getByLabel('Client', { exact: true })).toHaveValue('WGB');
  await expect(
    page.getByRole('option', {
      name: 'WGB - Client WGB (no tenant onboarded, no configuration on main)',
    }),
  ).toBeAttached();
  await page.getByRole('tab', { name: 'Capture Review' }).click();
  await expect(page.getByText('No capture branches found for this client.')).toBeVisible();
  await page.goBack(); // the baseline view
  await page.goBack(); // the fleet
  await expect(grid).toBeVisible({ timeout: 90_000 });

  // a row opens the client's Baseline Compliance
  await grid.getByRole('link', { name: 'ABC', exact: true }).click();
  await expect(page).toHaveURL(/\/capture-management\/ABC\?view=baseline$/);
  await expect(
    page.getByText('Current state of ABC vs company baseline (main branch)'),
  ).toBeVisible();
});

test('trigger capture lists a code without a tenant with what it lacks and does not offer it', async ({
  page,
}) => {
  await signIn(page, '/trigger-capture');
  const wgb = page.getByRole('option', {
    name: 'WGB - Client WGB (no tenant onboarded, no configuration on main)',
  });
  await expect(wgb).toBeDisabled();
  await expect(page.getByRole('option', { name: 'ABC - Client ABC' })).toBeEnabled();
  for (const [width, height] of [
    [1400, 900],
    [1024, 768],
  ] as const) {
    await page.setViewportSize({ width, height });
    await shot(page, `05-trigger-capture-${width}`);
  }
  await expectAccessible(page, 'trigger capture with a code lacking a tenant');
});
