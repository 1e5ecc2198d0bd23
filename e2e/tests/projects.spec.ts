import { expect, test } from '@playwright/test';

import { expectAccessible } from '../fixtures/a11y';
import { signIn } from '../fixtures/auth';
import { screenshotsFolder } from '../fixtures/paths';

const SHOTS = screenshotsFolder('screens');

test('a technician finds a project, opens its pipelines, deploys an app and sees the run complete', async ({
  page,
}) => {
  await signIn(page, '/azure-ado-projects');
  await expect(page.getByRole('heading', { name: 'Projects' })).toBeVisible();
  await expect(page.getByLabel('Total Projects count')).toHaveText('4');

  await page.getByRole('searchbox', { name: 'Search projects' }).fill('client app');
  await expect(page.getByLabel('Showing count')).toHaveText('1');
  await page.screenshot({ path: `${SHOTS}/projects-search.png` });
  await expectAccessible(page, 'projects-search');

  // The search is remembered for the browser session.
  await page.reload();
  await expect(page.getByRole('searchbox', { name: 'Search projects' })).toHaveValue('client app');

  await page.getByRole('link', { name: /^Client App Deployments/ }).click();
  await expect(page).toHaveURL(/\/associated-pipelines\/Client%20App%20Deployments\/[0-9a-f-]+$/);
  const card = page.getByRole('group', { name: /Workstation App Deployment \(ABC\)/ });
  await expect(card.getByText('Client: ABC')).toBeVisible();

  const run = card.getByRole('button', { name: 'Run Pipeline' });
  await expect(run).toBeDisabled();
  await card.getByRole('combobox', { name: 'Application' }).selectOption('Google Chrome');
  await expect(run).toBeEnabled();
  await run.click();
  await expect(card.getByText('Pipeline started successfully!')).toBeVisible();
  await expect(card.getByRole('status')).toHaveText(/Run #\d+: completed - succeeded/, {
    timeout: 30_000,
  });
  await page.screenshot({ path: `${SHOTS}/associated-pipelines-run.png` });
  await expectAccessible(page, 'associated-pipelines-run');

  // the run's log, from the run status (ADR 042): a dialog, closed with Escape
  const viewLog = card.getByRole('button', { name: 'View log' });
  await viewLog.click();
  const dialog = page.getByRole('dialog', { name: /^Log of run #\d+$/ });
  await expect(dialog).toBeVisible();
  // the DevOps emulator does not run an app deployment's script, and its log says so
  await expect(dialog.getByText(/^Starting: .* - Workstation App Deployment$/)).toBeVisible();
  await expect(dialog.getByText(/does not run this pipeline's script steps/)).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/associated-pipelines-run-log.png` });
  await expectAccessible(page, 'associated-pipelines-run-log');
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(viewLog).toBeFocused();
});

test('client pipelines run from their card and report failure to start', async ({
  page,
  request,
}) => {
  await signIn(page, '/pipelines-list');
  const card = page.getByRole('group', { name: /Workstation App Deployment \(CON\)/ });
  await card.getByRole('button', { name: 'Run Pipeline' }).click();
  await expect(card.getByText('Pipeline started successfully!')).toBeVisible();

  // The DevOps emulator's fault switch: the next run request fails.
  const devopsOrigin = new URL(page.url()).origin.replace(
    /:(\d+)$/,
    (_m, port: string) => `:${Number(port) + 102}`,
  );
  await request.post(`${devopsOrigin}/_emulator/faults`, {
    data: { kind: 'error', statusCode: 500, pathPattern: '/runs$', method: 'POST', times: 1 },
  });
  const other = page.getByRole('group', { name: /Workstation App Deployment \(FAB\)/ });
  await other.getByRole('button', { name: 'Run Pipeline' }).click();
  await expect(other.getByText('Failed to start the pipeline. Please try again.')).toBeVisible();
  await request.delete(`${devopsOrigin}/_emulator/faults`);
});
