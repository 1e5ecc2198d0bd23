import { gzipSync } from 'node:zlib';

import { expect, test } from '@playwright/test';

import { expectAccessible } from '../fixtures/a11y';
import { signIn } from '../fixtures/auth';

/** Issue 19: the landing page stays under 150 KB of gzipped JavaScript before anyone signs in. */
const LANDING_BUDGET_BYTES = 150 * 1024;

test('the landing page loads less than 150 KB of gzipped JavaScript; the portal comes after Sign In', async ({
  page,
}) => {
  const scripts = new Map<string, number>();
  page.on('response', async (response) => {
    if (response.request().resourceType() !== 'script') return;
    const body = await response.body().catch(() => undefined);
    if (body) scripts.set(response.url(), gzipSync(body, { level: 9 }).length);
  });
  await page.goto('/');
  await expect(page.getByRole('button', { name: 'Sign In' })).toBeEnabled();
  await page.waitForLoadState('networkidle');
  const landing = [...scripts.values()].reduce((a, b) => a + b, 0);
  expect(landing, `${(landing / 1024).toFixed(1)} KB gzip`).toBeLessThan(LANDING_BUDGET_BYTES);
  expect([...scripts.keys()].some((url) => /portal-shell|PublicClientApplication/.test(url))).toBe(
    false,
  );

  await page.getByRole('button', { name: 'Sign In' }).click();
  await page.getByRole('button', { name: /Alex Morgan/ }).click();
  await expect(page.getByText('Logged in user: Alex Morgan')).toBeVisible();
  expect([...scripts.keys()].some((url) => /portal-shell/.test(url))).toBe(true);
});

test('a signed-in user on an unknown address stays in the layout and finds the way back', async ({
  page,
}) => {
  await signIn(page, '/no-such-screen');
  await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Portal' })).toBeVisible();
  await expectAccessible(page, 'not-found');
  await page.getByRole('link', { name: 'Back to Projects' }).click();
  await expect(page).toHaveURL(/\/azure-ado-projects$/);
});
