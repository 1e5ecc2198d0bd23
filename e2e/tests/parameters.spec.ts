// Issue 30 §1–2 (ADR 073): a client's Parameters screen on the sample data, a parameter change
// proposed as a pull request, and the layered client CON's comparison naming its layer.
import { expect, test } from '@playwright/test';

import { expectAccessible } from '../fixtures/a11y';
import { signIn } from '../fixtures/auth';
import { screenshotsFolder } from '../fixtures/paths';

const SHOTS = screenshotsFolder('parameters');
const NEW_GROUP = '0f1e2d3c-4b5a-4697-8877-665544332211';

test('a client’s parameters, where the baseline uses them, its layers, and a change proposed for approval', async ({
  page,
}) => {
  test.setTimeout(240_000);
  await page.setViewportSize({ width: 1400, height: 900 });
  await signIn(page, '/fleet/CON/parameters');
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Parameters of CON' })).toBeVisible({
    timeout: 60_000,
  });
  const table = page.getByRole('table', { name: 'Parameters' });
  const row = table.getByRole('row', { name: /groupCreatorsGroupId/ });
  await expect(row).toContainText('AzureAD/DirectorySetting/Group.Unified.json');
  await expect(row).toContainText('Company');
  await expect(
    page.getByRole('list', { name: 'Layers in order' }).getByRole('listitem'),
  ).toHaveText(['Healthcare']);
  await page.screenshot({ path: `${SHOTS}/01-parameters-1400x900.png`, fullPage: true });
  await expectAccessible(page, 'parameters 01');
  await page.setViewportSize({ width: 1024, height: 768 });
  await page.screenshot({ path: `${SHOTS}/02-parameters-1024x768.png`, fullPage: true });
  await page.setViewportSize({ width: 1400, height: 900 });

  // keyboard: the change dialog opens from its row and takes the new value
  await row.getByRole('button', { name: 'Change groupCreatorsGroupId' }).focus();
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog', { name: "Change 'groupCreatorsGroupId'" });
  await expect(dialog).toBeVisible();
  await dialog.getByRole('textbox', { name: 'Value' }).fill(NEW_GROUP);
  await dialog
    .getByRole('textbox', { name: 'Reason (for the reviewer)' })
    .fill('The client renamed its licensed-staff group');
  await page.screenshot({ path: `${SHOTS}/03-change-dialog.png` });
  await expectAccessible(page, 'parameters 03 dialog');
  await dialog.getByRole('button', { name: 'Propose change' }).click();
  await expect(page.getByText(/^Proposed as pull request #\d+\.$/)).toBeVisible();
  await expect(page.getByText('Waiting for approval')).toBeVisible();
  // main still holds the old value until someone else approves
  await expect(row).not.toContainText(NEW_GROUP);
  await page.screenshot({ path: `${SHOTS}/04-proposed.png`, fullPage: true });
  await expectAccessible(page, 'parameters 04 proposed');
});

test('the comparison of the layered client CON shows the layer’s values and names the layer', async ({
  page,
}) => {
  test.setTimeout(240_000);
  await page.setViewportSize({ width: 1400, height: 900 });
  await signIn(page, '/fetch-json-files');
  await page.reload();
  await page.getByLabel('Client').selectOption('CON');
  await page.getByRole('radio', { name: /Options Baseline/ }).check();
  await page.getByRole('button', { name: 'Run Comparison' }).click();
  await expect(page.getByRole('status', { name: 'Comparison' })).toContainText('Complete!');
  await page.getByRole('button', { name: 'Expand All' }).click();
  const policy = page.getByRole('row', { name: /^Password Rule Settings ·/ });
  // the results are virtualised: scroll until the policy's row is rendered
  await expect
    .poll(
      async () => {
        await page.mouse.wheel(0, 400);
        return policy.count();
      },
      { timeout: 30_000 },
    )
    .toBeGreaterThan(0);
  await expect(policy).toContainText('Layer: Healthcare');
  await expect(policy).toContainText('PASS');
  await policy.scrollIntoViewIfNeeded();
  await page.screenshot({ path: `${SHOTS}/05-comparison-layer.png` });
  // the layer's value: Healthcare locks out after 5 attempts
  const lockout = page.getByRole('row', { name: /^values\[name=LockoutThreshold\]\.value / });
  await expect
    .poll(
      async () => {
        await page.mouse.wheel(0, 150);
        return lockout.count();
      },
      { timeout: 30_000 },
    )
    .toBeGreaterThan(0);
  await expect(lockout.getByRole('cell').nth(1)).toHaveText('5');
  await expect(lockout.getByRole('cell').nth(2)).toHaveText('5');
  await expectAccessible(page, 'parameters 05 comparison');
});

test('promoting a client’s policy into the baseline shows what it writes before it is proposed', async ({
  page,
}) => {
  test.setTimeout(240_000);
  await page.setViewportSize({ width: 1400, height: 900 });
  await signIn(page, '/capture-management/FAB?view=baseline');
  const deviations = page.getByRole('region', { name: 'Policy Deviations by Service Area' });
  await expect(deviations).toBeVisible({ timeout: 60_000 });
  await deviations.getByRole('button', { name: 'Expand All' }).click();
  await deviations.getByRole('button', { name: /Group\.Unified/ }).click();
  await page.getByRole('button', { name: 'Promote into the baseline' }).click();
  const dialog = page.getByRole('dialog', { name: 'Promote into the baseline' });
  await expect(
    dialog.getByText(
      'It replaces the policy at /M365Config/Resources/AzureAD/DirectorySetting/Group.Unified.json whole.',
    ),
  ).toBeVisible();
  // FAB's own group id becomes the parameter's name
  await expect(dialog.getByRole('table', { name: 'Values replaced by parameters' })).toContainText(
    '{{aegis:param:groupCreatorsGroupId}}',
  );
  await page.screenshot({ path: `${SHOTS}/06-promote-1400x900.png` });
  await expectAccessible(page, 'parameters 06 promote');
  await page.setViewportSize({ width: 1024, height: 768 });
  await page.screenshot({ path: `${SHOTS}/07-promote-1024x768.png` });
  await dialog.getByRole('button', { name: 'Propose promotion' }).click();
  await expect(dialog.getByText(/^Proposed as pull request #\d+\.$/)).toBeVisible();
});
