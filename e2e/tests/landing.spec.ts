import { expect, test } from '@playwright/test';

import { expectAccessible } from '../fixtures/a11y';
import { signIn } from '../fixtures/auth';
import { screenshotsFolder } from '../fixtures/paths';

const SHOTS = screenshotsFolder('screens');

test('the landing page states its claims and thanks a contact without calling anything', async ({
  page,
}) => {
  const calls: string[] = [];
  page.on('request', (request) => {
    if (request.url().includes('/api/')) calls.push(request.url());
  });
  await page.goto('/');
  await expect(page.getByText('500+')).toBeVisible();
  await expect(page.getByText('99.9%')).toBeVisible();
  await expect(page.getByText('24/7')).toBeVisible();

  const form = page.getByRole('form', { name: 'Contact us' });
  await form.getByRole('button', { name: 'Send Message' }).click();
  await expect(page.getByRole('dialog')).toBeHidden();

  await form.getByLabel('Name').fill('Dana Client');
  await form.getByLabel('Email').fill('not-an-email');
  await form.getByLabel('Message').fill('Please call me back.');
  await form.getByRole('button', { name: 'Send Message' }).click();
  await expect(page.getByRole('dialog')).toBeHidden();

  await form.getByLabel('Email').fill('dana@client.example');
  await form.getByRole('button', { name: 'Send Message' }).click();
  await expect(page.getByRole('dialog')).toContainText('respond within 24 business hours');
  await page.screenshot({ path: `${SHOTS}/landing-thank-you.png` });
  await expectAccessible(page, 'landing-thank-you');
  await page.getByRole('button', { name: 'Close' }).click();
  await expect(form.getByLabel('Name')).toHaveValue('');
  expect(calls).toEqual([]);
});

test('a signed-out user opening a portal page signs in and lands on that page', async ({
  page,
}) => {
  await page.goto('/pipelines-list');
  await expect(page).toHaveURL(/\/login\?returnTo=%2Fpipelines-list/);
  await signIn(page, '/pipelines-list');
  await expect(page).toHaveURL(/\/pipelines-list$/);
});

test('an account without a display name shows its upn and the default photo; logout signs out', async ({
  page,
}) => {
  await page.goto('/login');
  await page.getByRole('button', { name: 'Sign In' }).click();
  await page.getByRole('button', { name: /night\.shift@aegis-msp\.example/ }).click();
  await expect(page.getByText('Logged in user: night.shift@aegis-msp.example')).toBeVisible();
  await expect(page.getByRole('img', { name: 'Profile' })).toHaveAttribute(
    'src',
    /default-photo|data:image\/svg/,
  );
  await page.getByRole('button', { name: 'Logout' }).click();
  await expect(page).toHaveURL(/\/$/);
  await page.goto('/azure-ado-projects');
  await expect(page).toHaveURL(/\/login/);
});
