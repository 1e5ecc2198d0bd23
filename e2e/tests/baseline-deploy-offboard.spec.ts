// Issue 15: a technician deploys the 'Essential Security' preset to a client tenant and watches the
// run finish (with the backup it took first), then off-boards 'Minimal Cleanup' through the
// confirmation. NWT is used: no other journey depends on its tenant or its backup status.

import { expect, test, type Page } from '@playwright/test';

import { expectAccessible } from '../fixtures/a11y';
import { signIn } from '../fixtures/auth';
import { screenshotsFolder } from '../fixtures/paths';

const SHOTS = screenshotsFolder('baseline-deploy-offboard');

const shot = (page: Page, name: string) =>
  page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });

async function choosePipeline(page: Page) {
  await page
    .getByLabel('Pipeline')
    .selectOption({ label: 'NWT Tenant Configuration - Tenants\\NWT' });
}

test('deploy Essential Security to a tenant, then off-board Minimal Cleanup', async ({ page }) => {
  test.setTimeout(180_000);
  await page.setViewportSize({ width: 1400, height: 900 });
  await signIn(page, '/tenant-baseline-options');
  await page.getByRole('tab', { name: 'Baseline Deployment' }).click();
  await choosePipeline(page);

  // the preset, its count and estimate; the selection rules
  await page.getByRole('button', { name: 'Essential Security' }).click();
  await expect(page.getByText(/5\s*of 57 components\s*selected/)).toBeVisible();
  await expect(page.getByText('Estimated time: 35m 30s')).toBeVisible();
  await page.getByRole('checkbox', { name: 'Conditional Access Policies' }).check();
  await expect(page.getByRole('checkbox', { name: 'Named Locations' })).toBeChecked();
  await page.getByRole('checkbox', { name: 'Named Locations' }).uncheck();
  await expect(
    page.getByRole('checkbox', { name: 'Conditional Access Policies' }),
  ).not.toBeChecked();
  await page.getByRole('checkbox', { name: 'Auto Pilot' }).check();
  await expect(page.getByText(/Auto Pilot requires Device Registration/)).toBeVisible();
  await page.getByRole('checkbox', { name: 'Auto Pilot' }).uncheck();
  await shot(page, '01-deploy-selection');
  await expectAccessible(page, 'baseline deployment tab');

  // a component's info, then its configuration preview from the repository
  await page.getByRole('button', { name: 'About Device Compliance' }).click();
  const info = page.getByRole('dialog');
  await expect(info.getByText('Impact level')).toBeVisible();
  await expect(info.getByText('30 seconds')).toBeVisible();
  await info.getByRole('button', { name: 'View configuration' }).click();
  const config = page.getByRole('dialog');
  await expect(config.getByText('Device Compliance configuration')).toBeVisible();
  await config.getByRole('tab', { name: 'Settings Details' }).click();
  await expect(
    config.getByRole('table', { name: 'Baseline - Windows - System Security settings' }),
  ).toBeVisible();
  await shot(page, '02-config-settings');
  await expectAccessible(page, 'configuration info modal');
  await config.getByRole('tab', { name: 'Raw Configuration' }).click();
  await expect(config.getByLabel('Raw configuration')).toContainText('"displayName"');
  await config.getByRole('button', { name: 'Close' }).click();

  // what the deploy will do, then the deploy itself
  await page.getByRole('button', { name: 'Preview Changes' }).click();
  const preview = page.getByRole('region', { name: 'Deploy preview' });
  await expect(preview.getByText(/Preview for NWT/)).toBeVisible();
  await page.getByRole('button', { name: 'Deploy Selected Components' }).click();
  // it asks first, naming the tenant, the components and the estimate (issue 27.4)
  const confirmDeploy = page.getByRole('alertdialog', { name: 'Deploy selected components' });
  await expect(confirmDeploy).toContainText('Estimated time:');
  await shot(page, '03a-deploy-confirmation');
  await page.setViewportSize({ width: 1024, height: 768 });
  await shot(page, '03a-deploy-confirmation-1024x768');
  await page.setViewportSize({ width: 1400, height: 900 });
  await expectAccessible(page, 'deploy confirmation');
  await confirmDeploy.getByRole('button', { name: 'Deploy' }).click();
  await expect(page.getByText('Pipeline triggered successfully!')).toBeVisible();
  await expect(page.getByText(/succeeded/)).toBeVisible({ timeout: 90_000 });
  await expect(page.getByText(/Backup taken before this deploy: backup\/NWT\//)).toBeVisible();
  await shot(page, '03-deployed');
  await expectAccessible(page, 'baseline deployment finished');

  // off-board: validation, preset, the permanent-removal list, confirmation
  await page.getByRole('tab', { name: 'Off-Board Tenant' }).click();
  await page.getByRole('button', { name: 'Remove Selected Components' }).click();
  await expect(page.getByText('Please select at least one component to remove')).toBeVisible();
  await page.getByRole('button', { name: 'Minimal Cleanup' }).click();
  await page.getByRole('button', { name: 'Remove Selected Components' }).click();
  await expect(page.getByText('Please select a pipeline')).toBeVisible();
  await choosePipeline(page);
  const list = page.getByRole('region', { name: 'Components to remove' });
  await expect(
    list.getByText('Components to remove (4) · Estimated total: 11 minutes'),
  ).toBeVisible();
  await expect(list.getByText(/cannot\s+be undone/)).toBeVisible();
  await shot(page, '04-offboard-selection');
  await expectAccessible(page, 'off-board tab');
  await page.getByRole('button', { name: 'Remove Selected Components' }).click();
  const confirm = page.getByRole('alertdialog');
  await expect(confirm.getByText('Confirm removal')).toBeVisible();
  await shot(page, '05-offboard-confirm');
  await expectAccessible(page, 'off-board confirmation');
  await confirm.getByRole('button', { name: 'Proceed with Removal' }).click();
  await expect(list.getByText('Nothing selected yet.')).toBeVisible();
  await expect(page.getByText(/succeeded/)).toBeVisible({ timeout: 90_000 });
  await shot(page, '06-offboarded');
});
