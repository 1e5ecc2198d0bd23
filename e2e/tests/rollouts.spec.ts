// Issue 30 §3: a rollout planned from fresh captures of two tenants, shown ring by ring, then
// aborted before it starts (so no tenant and no baseline on the shared stack changes).
import { expect, test } from '@playwright/test';

import { expectAccessible } from '../fixtures/a11y';
import { signIn } from '../fixtures/auth';
import { notice } from '../fixtures/notices';
import { screenshotsFolder } from '../fixtures/paths';

const SHOTS = screenshotsFolder('rollouts');

test('plan a rollout in two rings from fresh captures, look at it, abort it', async ({ page }) => {
  test.setTimeout(240_000);
  await page.setViewportSize({ width: 1400, height: 900 });
  await signIn(page, '/rollouts');
  await expect(page.getByRole('heading', { name: 'Baseline Rollouts' })).toBeVisible();
  await page.getByRole('link', { name: 'New rollout' }).click();

  await page.getByRole('checkbox', { name: /^NWT/ }).check();
  await page.getByRole('checkbox', { name: /^WWI/ }).check();
  await page.getByRole('button', { name: 'Plan' }).click();
  const plan = page.getByRole('table', { name: 'Plan per tenant' });
  await expect(plan.getByRole('row', { name: /NWT/ })).toContainText('Planned', {
    timeout: 120_000,
  });
  await expect(plan.getByRole('row', { name: /WWI/ })).toContainText('Planned', {
    timeout: 120_000,
  });
  await page.getByRole('combobox', { name: 'Ring of WWI' }).selectOption('Ring 2');
  await page.screenshot({ path: `${SHOTS}/01-plan-1400x900.png`, fullPage: true });
  await expectAccessible(page, 'rollouts 01-plan');
  await page.setViewportSize({ width: 1024, height: 768 });
  await page.screenshot({ path: `${SHOTS}/02-plan-1024x768.png`, fullPage: true });
  await page.setViewportSize({ width: 1400, height: 900 });

  await page.getByRole('button', { name: 'Create rollout' }).click();
  await expect(page.getByRole('button', { name: 'Start rollout' })).toBeVisible();
  await expect(page.getByRole('table', { name: 'Tenants of Ring 1' })).toContainText('NWT');
  await expect(page.getByRole('table', { name: 'Tenants of Ring 2' })).toContainText('WWI');
  await page.screenshot({ path: `${SHOTS}/03-rollout-1400x900.png`, fullPage: true });
  await expectAccessible(page, 'rollouts 03-rollout');
  await page.setViewportSize({ width: 1024, height: 768 });
  await page.screenshot({ path: `${SHOTS}/04-rollout-1024x768.png`, fullPage: true });

  // abort from the keyboard, through the confirmation
  await page.getByRole('button', { name: 'Abort' }).focus();
  await page.keyboard.press('Enter');
  const prompt = page.getByRole('alertdialog', { name: 'Abort this rollout?' });
  await prompt.getByRole('button', { name: 'Abort' }).click();
  await expect(notice(page, 'The rollout was aborted.')).toBeVisible();
  await expect(page.getByText('Aborted', { exact: true })).toBeVisible();

  await page.getByRole('link', { name: 'All rollouts' }).click();
  await expect(page.getByRole('table', { name: 'Rollouts' })).toContainText('Aborted');
  await page.screenshot({ path: `${SHOTS}/05-list-1400x900.png` });
  await expectAccessible(page, 'rollouts 05-list');
});
