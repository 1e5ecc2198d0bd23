import { expect, test, type Page } from '@playwright/test';

import { expectAccessible } from '../fixtures/a11y';
import { signIn } from '../fixtures/auth';
import { mainFileText, tokenFor } from '../fixtures/emulators';
import { screenshotsFolder } from '../fixtures/paths';

const SHOTS = screenshotsFolder('screens');

async function signInTo(page: Page, path: string): Promise<void> {
  await signIn(page, path);
  await page.reload();
}

test('a client YAML: view it, regenerate its app list and see what changed', async ({ page }) => {
  await page.goto('/ViewAppList');
  await expect(page).toHaveURL(/\/login/);
  await signInTo(page, '/ViewAppList');
  await expect(page.getByRole('heading', { name: 'App Deployment Pipelines' })).toBeVisible();
  const select = page.getByLabel('Pipeline');
  await expect(select.locator('option')).not.toHaveCount(1);
  await select.selectOption({ label: 'ABC - Workstation App Deployment - ABC' });
  await page.getByRole('button', { name: 'View YAML' }).click();
  await expect(page.getByText('App Deploy - Yaml File Contents')).toBeVisible();
  await expect(
    page.getByRole('region', { name: 'Client_Yaml_Files/ABC-azure-pipelines.yml' }),
  ).toContainText('App deployment pipeline for ABC');
  await page.getByRole('button', { name: 'Update YAML with Apps' }).click();
  await expect(page.getByText(/Changes to the app list/)).toBeVisible();
  await expectAccessible(page, 'client YAML preview');
  await page.screenshot({ path: `${SHOTS}/client-yaml-preview.png`, fullPage: true });
  await page.getByRole('button', { name: 'Write to repository' }).click();
  await expect(page.getByText('YAML updated successfully.')).toBeVisible();

  // disable an app of the table: the next update takes it out of the file on main
  const YAML_FILE = '/Client_Yaml_Files/ABC-azure-pipelines.yml';
  const authorization = `Bearer ${await tokenFor()}`;
  const { rows } = (await (
    await page.request.get('/api/app-tables/ABCWorkstationApps/rows', {
      headers: { authorization },
    })
  ).json()) as {
    rows: { PartitionKey: string; RowKey: string; AppName: string; Status: string }[];
  };
  const app = rows.find((row) => row.Status === 'Enabled');
  expect(app, 'an enabled app in ABCWorkstationApps').toBeDefined();
  const listed = new RegExp(
    `^\\s*- ['"]?${app!.AppName.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}['"]?\\s*$`,
    'm',
  );
  expect(await mainFileText(YAML_FILE)).toMatch(listed);
  const disabled = await page.request.patch(
    `/api/app-tables/ABCWorkstationApps/entities/${encodeURIComponent(app!.PartitionKey)}/${encodeURIComponent(app!.RowKey)}`,
    { headers: { authorization }, data: { properties: { Status: 'Disabled' } } },
  );
  expect(disabled.ok()).toBe(true);
  await page.getByRole('button', { name: 'Update YAML with Apps' }).click();
  await expect(
    page.getByRole('list', { name: 'App list changes' }).getByText(`− ${app!.AppName}`),
  ).toBeVisible();
  await page.getByRole('button', { name: 'Write to repository' }).click();
  await expect(page.getByText('YAML updated successfully.')).toBeVisible();
  expect(await mainFileText(YAML_FILE)).not.toMatch(listed);
});

test('client schedules: a taken slot is disabled with its client, a schedule is saved', async ({
  page,
}) => {
  await signInTo(page, '/ClientPipelineSchedules?client=WWI');
  const dialog = page.getByRole('dialog');
  await expect(dialog).toBeVisible();
  await dialog.getByLabel('Day').selectOption({ label: 'Sunday' });
  await expect(
    dialog.getByRole('option', { name: '2:00 AM – Time slot in use by - ABC' }),
  ).toBeDisabled();
  await expectAccessible(page, 'schedule dialog');
  await page.screenshot({ path: `${SHOTS}/schedule-dialog.png`, fullPage: true });
  await dialog.getByLabel('Day').selectOption({ label: 'Saturday' });
  await dialog.getByLabel('Time').selectOption({ label: '11:30 PM' });
  await dialog.getByRole('button', { name: /Schedule$/ }).click();
  await expect(page.getByText('Schedule updated successfully!')).toBeVisible();
  await page.getByLabel('Filter by client').fill('');
  const scheduled = page.getByRole('table', { name: 'Clients with Scheduled Pipelines' });
  await expect(scheduled.getByText('Weekly 11:30 PM build (Saturday) (30 23 * * 6)')).toBeVisible();
  await expectAccessible(page, 'client pipeline schedules');
  await page.screenshot({ path: `${SHOTS}/client-schedules.png`, fullPage: true });
  // the week at a glance: WWI now holds Saturday 11:30 PM
  await page.getByRole('tab', { name: /^Saturday \(\d+\)$/ }).click();
  await expect(
    page
      .getByRole('table', { name: 'Slots held on Saturday' })
      .getByRole('row', { name: /11:30 PM .*WWI/ }),
  ).toBeVisible();
  await expectAccessible(page, 'week at a glance');
  await page.getByRole('heading', { name: 'Week at a glance (UTC)' });
  await page
    .locator('section[aria-labelledby="week-heading"]')
    .screenshot({ path: `${SHOTS}/week-at-a-glance.png` });
});
