// Issue 27, what a technician's tour found: a link opened in a new tab stays signed in, the
// keyboard can skip the sidebar, and each tab is named after its page.

import { expect, test } from '@playwright/test';

import { expectAccessible } from '../fixtures/a11y';
import { signIn } from '../fixtures/auth';
import { screenshotsFolder } from '../fixtures/paths';

const SHOTS = screenshotsFolder('tour');

test('a link opened in a new tab stays signed in; the first Tab offers to skip the sidebar', async ({
  page,
  context,
}) => {
  await signIn(page, '/tenant-backup');
  await expect(page).toHaveTitle('Tenant Backups - Aegis');

  const opened = await context.newPage();
  await opened.goto('/tenant-backup');
  await expect(opened.getByRole('heading', { name: 'Tenant Backups' })).toBeVisible();
  await expect(opened.getByRole('option', { name: 'ABC' })).toBeAttached();
  await expect(opened.getByRole('dialog', { name: 'Sign in to Aegis' })).toHaveCount(0);

  await opened.keyboard.press('Tab');
  const skip = opened.getByRole('link', { name: 'Skip to content' });
  await expect(skip).toBeFocused();
  for (const [width, height] of [
    [1400, 900],
    [1024, 768],
  ] as const) {
    await opened.setViewportSize({ width, height });
    await opened.screenshot({ path: `${SHOTS}/skip-link-${width}x${height}.png` });
  }
  await expectAccessible(opened, 'skip link focused');
  await opened.keyboard.press('Enter');
  await expect(opened.getByRole('main')).toBeFocused();
  await opened.keyboard.press('Tab');
  // the next stop is inside the page, not the sidebar's first link
  const focusedInMain = await opened.evaluate(
    () => document.activeElement?.closest('main') !== null,
  );
  expect(focusedInMain).toBe(true);
});

test("the 'Options - Aegis' link is drawn as Fluent draws links", async ({ page }) => {
  await signIn(page, '/tenant-baseline-options');
  const link = page.getByRole('main').getByRole('link', { name: 'Configuration Comparison' });
  // the browser's default link blue, which it had
  await expect(link).not.toHaveCSS('color', 'rgb(0, 0, 238)');
  await expect(link).toHaveCSS('text-decoration-line', 'underline');
  for (const [width, height] of [
    [1400, 900],
    [1024, 768],
  ] as const) {
    await page.setViewportSize({ width, height });
    await page.screenshot({ path: `${SHOTS}/options-link-${width}x${height}.png` });
  }
  await expectAccessible(page, 'tenant baseline options link');
});
