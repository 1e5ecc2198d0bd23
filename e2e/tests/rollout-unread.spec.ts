// Issue 30 (ADR 087): a rollout planned while the tenant emulator refuses one workload of WWI
// (Graph's 403 Authorization_RequestDenied) flags WWI on the plan and on the rollout; the rollout
// waits until WWI is acknowledged, then is aborted before it starts (no tenant, no baseline
// changes). Also the rollout screens not looked at before: the baseline-commit picker and a
// rollout halted because main moved (its answer stubbed in the browser: making main move under a
// running rollout would change the baseline the other journeys read).
import { expect, test } from '@playwright/test';

import { expectAccessible } from '../fixtures/a11y';
import { signIn } from '../fixtures/auth';
import { TENANTS_URL } from '../fixtures/emulators';
import { notice } from '../fixtures/notices';
import { screenshotsFolder } from '../fixtures/paths';

const SHOTS = screenshotsFolder('rollout-unread');

async function denyConditionalAccess(code: string, on: boolean): Promise<void> {
  const response = await fetch(`${TENANTS_URL}/${code}/scenarios`, {
    method: 'PATCH',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      failingWorkload: on ? { workload: 'ConditionalAccess/Policy', status: 403 } : null,
    }),
  });
  expect(response.ok).toBe(true);
}

test('a tenant whose read was refused a workload is flagged and waits for an acknowledgement', async ({
  page,
}) => {
  test.setTimeout(240_000);
  await page.setViewportSize({ width: 1400, height: 900 });
  await denyConditionalAccess('WWI', true);
  try {
    await signIn(page, '/rollouts/new');
    const picker = page.getByRole('combobox', { name: /Baseline commit/ });
    await expect(picker).toBeVisible();
    await page.screenshot({ path: `${SHOTS}/01-picker-1400x900.png`, fullPage: true });
    await expectAccessible(page, 'rollout-unread 01-picker');
    await page.setViewportSize({ width: 1024, height: 768 });
    // a long commit subject is cut in the picker, not allowed to widen the page
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      1024,
    );
    await page.screenshot({ path: `${SHOTS}/02-picker-1024x768.png`, fullPage: true });
    await expectAccessible(page, 'rollout-unread 02-picker');
    await page.setViewportSize({ width: 1400, height: 900 });

    await page.getByRole('checkbox', { name: /^NWT/ }).check();
    await page.getByRole('checkbox', { name: /^WWI/ }).check();
    await page.getByRole('button', { name: 'Plan' }).click();
    const plan = page.getByRole('table', { name: 'Plan per tenant' });
    for (const code of ['NWT', 'WWI']) {
      await expect(plan.getByRole('row', { name: new RegExp(code) })).toContainText('Planned', {
        timeout: 120_000,
      });
    }
    await expect(plan.getByRole('row', { name: /WWI/ })).toContainText('1 workload not read');
    await expect(plan.getByRole('row', { name: /NWT/ })).not.toContainText('not read');
    const flag = page.getByText('The plan could not read some workloads');
    await expect(flag).toBeVisible();
    await expect(
      page.getByText(
        /ConditionalAccess\/Policy: Not captured: the Aegis app lacks .*Authorization_RequestDenied/,
      ),
    ).toBeVisible();
    await page.screenshot({ path: `${SHOTS}/03-plan-flag-1400x900.png`, fullPage: true });
    await expectAccessible(page, 'rollout-unread 03-plan-flag');
    await page.setViewportSize({ width: 1024, height: 768 });
    await page.screenshot({ path: `${SHOTS}/04-plan-flag-1024x768.png`, fullPage: true });
    await page.setViewportSize({ width: 1400, height: 900 });

    await page.getByRole('button', { name: 'Create rollout' }).click();
    const start = page.getByRole('button', { name: 'Start rollout' });
    await expect(start).toBeDisabled();
    await expect(
      page.getByText('Acknowledge or exclude WWI before the rollout starts.'),
    ).toBeVisible();
    const wwi = page.getByRole('region', { name: 'WWI' });
    await expect(wwi).toContainText('Waiting for an Approver: acknowledge or exclude.');
    await page.screenshot({ path: `${SHOTS}/05-rollout-flag-1400x900.png`, fullPage: true });
    await expectAccessible(page, 'rollout-unread 05-rollout-flag');
    await page.setViewportSize({ width: 1024, height: 768 });
    await page.screenshot({ path: `${SHOTS}/06-rollout-flag-1024x768.png`, fullPage: true });
    await expectAccessible(page, 'rollout-unread 06-rollout-flag');
    await page.setViewportSize({ width: 1400, height: 900 });

    // acknowledged from the keyboard; the rollout may then start
    await wwi.getByRole('button', { name: 'Acknowledge WWI' }).focus();
    await page.keyboard.press('Enter');
    await expect(notice(page, 'WWI deploys despite its unread workloads.')).toBeVisible();
    await expect(wwi).toContainText(/Acknowledged by .* it deploys with the rest of its ring\./);
    await expect(start).toBeEnabled();
    await page.screenshot({ path: `${SHOTS}/07-acknowledged-1400x900.png`, fullPage: true });

    // aborted before it starts: nothing deploys on the shared stack
    await page.getByRole('button', { name: 'Abort' }).click();
    await page
      .getByRole('alertdialog', { name: 'Abort this rollout?' })
      .getByRole('button', { name: 'Abort' })
      .click();
    await expect(notice(page, 'The rollout was aborted.')).toBeVisible();
  } finally {
    await denyConditionalAccess('WWI', false);
  }
});

test('a rollout halted because main moved offers Plan again (without the excluded) and Abort', async ({
  page,
}) => {
  const id = '3f2b8c1e-0000-4000-8000-0000000000aa';
  const halted = {
    id,
    status: 'halted',
    commitId: 'c0ffee0123456789c0ffee0123456789c0ffee01',
    createdBy: 'priya.shah@aegis-msp.example',
    createdAt: '2026-11-27T10:00:00.000Z',
    rings: [
      { name: 'Ring 1', clients: ['NWT'], maxFailures: 0, needsApproval: false },
      { name: 'Ring 2', clients: ['FAB'], maxFailures: 0, needsApproval: true },
    ],
    currentRing: 1,
    plan: [
      { client: 'NWT', creates: 0, updates: 2, deletes: 0 },
      { client: 'FAB', creates: 1, updates: 0, deletes: 0 },
      // left out by an Approver for a workload the plan could not read: not planned again
      {
        client: 'CON',
        creates: 3,
        updates: 0,
        deletes: 0,
        unread: [
          {
            workload: 'Conditional Access',
            status: 'notPermitted',
            text: 'Not captured: Authorization_RequestDenied: Insufficient privileges to complete the operation.',
            baselinePolicies: 3,
          },
        ],
      },
    ],
    unreadDecisions: {
      CON: {
        decision: 'excluded',
        by: 'jo.second@aegis-msp.example',
        at: '2026-11-27T10:30:00.000Z',
      },
    },
    deploys: {
      NWT: { status: 'succeeded', runId: 11, backupTag: 'backup/NWT/20261127_100100' },
      FAB: { status: 'pending' },
    },
    rollbacks: {},
    approvals: { 1: 'jo.second@aegis-msp.example' },
    mainMoved: {
      commitId: 'beef0123456789abbeef0123456789abbeef0123',
      at: '2026-11-27T11:00:00.000Z',
    },
    failed: [],
    project: 'Aegis Tenant Management',
    pipelineId: 212,
  };
  await page.route(`**/api/rollouts/${id}`, (route) => route.fulfill({ json: halted }));
  await page.setViewportSize({ width: 1400, height: 900 });
  await signIn(page, `/rollouts/${id}`);
  await expect(page.getByText('Halted: the baseline on main changed')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Resume' })).toHaveCount(0);
  await page.screenshot({ path: `${SHOTS}/08-main-moved-1400x900.png`, fullPage: true });
  await expectAccessible(page, 'rollout-unread 08-main-moved');
  await page.setViewportSize({ width: 1024, height: 768 });
  await page.screenshot({ path: `${SHOTS}/09-main-moved-1024x768.png`, fullPage: true });
  await expectAccessible(page, 'rollout-unread 09-main-moved');
  await page.getByRole('link', { name: 'Plan again' }).click();
  await expect(page.getByRole('checkbox', { name: /^NWT/ })).toBeChecked();
  await expect(page.getByRole('checkbox', { name: /^FAB/ })).toBeChecked();
  await expect(page.getByRole('checkbox', { name: /^CON/ })).not.toBeChecked();
  await page.screenshot({ path: `${SHOTS}/10-plan-again-1024x768.png`, fullPage: true });
});
