// Issue 30 done-when bullet 1 on `npm start`: a baseline policy naming a group by parameter
// (Group.Unified, {{aegis:param:groupCreatorsGroupId}}) deploys from the deploy screen to two sample
// tenants, each gets its own group id (read back from the tenant emulator), and once their captures
// are approved both compare as compliant; CON, with the layer 'Healthcare', gets and shows the
// layer's value. Then ADR 079: CON drops the layer, and the Parameters screen removes what only the
// layer held from its tenant. ABC and CON are used: no later journey reads their tenants or backups.
import { expect, test, type Page } from '@playwright/test';

import { expectAccessible } from '../fixtures/a11y';
import { signIn } from '../fixtures/auth';
import {
  configRepositoryUrl,
  devopsTokenFor,
  E2E_PORT,
  TENANTS_URL,
  tokenFor,
} from '../fixtures/emulators';
import { screenshotsFolder } from '../fixtures/paths';

const SHOTS = screenshotsFolder('parameter-deploy');
const API = `http://localhost:${E2E_PORT}/api`;
const CLIENTS = ['ABC', 'CON'] as const;
const STAFF = {
  alex: { upn: 'alex.morgan@aegis-msp.example', oid: '5b1f6a0e-2f4c-4d8e-9a51-7c3e2b9d4f10' },
  priya: { upn: 'priya.shah@aegis-msp.example', oid: '8d2e4c71-91b3-4f0a-b6c2-3e5f7a9d1b22' },
} as const;
type Staff = (typeof STAFF)[keyof typeof STAFF];
const DIRECTORY_SETTING = 'AzureAD/DirectorySetting';
const CA_POLICY = 'ConditionalAccess/Policy';
const CA900 = 'CA900-CON-Contractors-AnyApp-AnyPlatform-BLOCK-OutsideOffice';
const CA000 = 'CA000-Global-IdentityProtection-AnyApp-AnyPlatform-MFA';

type Setting = { values?: { name: string; value: string }[] };

async function api<T>(
  method: 'GET' | 'POST',
  path: string,
  body?: unknown,
  as: Staff = STAFF.alex,
) {
  const response = await fetch(`${API}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${await tokenFor(as.upn)}`,
      ...(body ? { 'content-type': 'application/json' } : {}),
    },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  expect(response.ok, `${method} ${path}: ${response.status}`).toBe(true);
  return (await response.json()) as T;
}

/** One object as the client's tenant holds it now, from the tenant emulator; undefined when gone. */
async function tenantObject<T>(code: string, workload: string, object: string) {
  const response = await fetch(
    `${TENANTS_URL}/${code}/objects?workload=${encodeURIComponent(workload)}&object=${encodeURIComponent(object)}`,
  );
  if (response.status === 404) return undefined;
  expect(response.status).toBe(200);
  return (await response.json()) as T;
}

/** The tenant's Global Administrator changes a setting by hand. */
async function changeInTenant(code: string, workload: string, object: string, set: object) {
  const response = await fetch(`${TENANTS_URL}/${code}/drift`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ workload, object, set }),
  });
  expect(response.status).toBe(200);
}

const valueOf = (setting: Setting | undefined, name: string) =>
  setting?.values?.find((v) => v.name === name)?.value;

async function withValue(code: string, object: string, name: string, value: string) {
  const setting = await tenantObject<Setting>(code, DIRECTORY_SETTING, object);
  const values = (setting?.values ?? []).map((v) => (v.name === name ? { ...v, value } : v));
  await changeInTenant(code, DIRECTORY_SETTING, object, { values });
}

/** A second person approves and completes a pull request in Azure DevOps (main's branch policy). */
async function completeAs(who: Staff, pullRequestId: number) {
  const token = await devopsTokenFor(who.upn);
  const url = `${await configRepositoryUrl()}/pullrequests/${pullRequestId}`;
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  const vote = await fetch(`${url}/reviewers/${who.oid}?api-version=7.1`, {
    method: 'PUT',
    headers,
    body: JSON.stringify({ vote: 10 }),
  });
  expect(vote.status).toBe(200);
  const done = await fetch(`${url}?api-version=7.1`, {
    method: 'PATCH',
    headers,
    body: JSON.stringify({ status: 'completed' }),
  });
  expect(done.status).toBe(200);
}

const shot = (page: Page, name: string) =>
  page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true, animations: 'disabled' });

/** The comparison row of a policy (the results are virtualised: scrolled until it is rendered). */
async function comparisonRow(page: Page, code: string, policy: string) {
  await page.goto('/fetch-json-files');
  await page.getByLabel('Client').selectOption(code);
  await page.getByRole('radio', { name: /Options Baseline/ }).check();
  await page.getByRole('button', { name: 'Run Comparison' }).click();
  await expect(page.getByRole('status', { name: 'Comparison' })).toContainText('Complete!', {
    timeout: 60_000,
  });
  await page.getByRole('button', { name: 'Expand All' }).click();
  const row = page.getByRole('row', { name: new RegExp(`^${policy} ·`) });
  await expect
    .poll(
      async () => {
        await page.mouse.wheel(0, 400);
        return row.count();
      },
      { timeout: 30_000 },
    )
    .toBeGreaterThan(0);
  await row.scrollIntoViewIfNeeded();
  return row;
}

test.describe.configure({ mode: 'serial' });

test('a parameterised policy deploys to two tenants with each tenant’s own group, and both compare as compliant', async ({
  page,
}) => {
  test.setTimeout(720_000);
  // each tenant lost its setting: anyone may create groups; CON also drifted from its layer's value
  for (const code of CLIENTS) {
    await withValue(code, 'Group.Unified', 'GroupCreationAllowedGroupId', '');
  }
  await withValue('CON', 'Password Rule Settings', 'LockoutThreshold', '10');

  await page.setViewportSize({ width: 1400, height: 900 });
  await signIn(page, '/tenant-baseline-options');
  for (const code of CLIENTS) {
    await page.goto('/tenant-baseline-options');
    await page.getByRole('tab', { name: 'Baseline Deployment' }).click();
    await page
      .getByRole('combobox', { name: 'Pipeline' })
      .selectOption({ label: `${code} Tenant Configuration - Tenants\\${code}` });
    await page.getByRole('checkbox', { name: 'Password Protection' }).check();
    await page.getByRole('button', { name: 'Deploy Selected Components' }).click();
    const confirm = page.getByRole('alertdialog', { name: 'Deploy selected components' });
    await expect(confirm).toContainText(code);
    await confirm.getByRole('button', { name: 'Deploy' }).click();
    await expect(page.getByText(/succeeded/)).toBeVisible({ timeout: 120_000 });
    await expect(
      page.getByText(new RegExp(`Backup taken before this deploy: backup/${code}/`)),
    ).toBeVisible();
    if (code === 'ABC') {
      await shot(page, '01-deployed-1400x900');
      await expectAccessible(page, 'parameter deploy 01 deployed');
      await page.setViewportSize({ width: 1024, height: 768 });
      await shot(page, '02-deployed-1024x768');
      await page.setViewportSize({ width: 1400, height: 900 });
    }
  }

  // each tenant holds its own group, the value of its own parameter
  const groups: string[] = [];
  for (const code of CLIENTS) {
    const parameters = await api<{ parameters: { name: string; value: unknown }[] }>(
      'GET',
      `/clients/${code}/parameters`,
    );
    const own = parameters.parameters.find((p) => p.name === 'groupCreatorsGroupId')?.value;
    expect(own).toMatch(/^[0-9a-f-]{36}$/);
    const live = await tenantObject<Setting>(code, DIRECTORY_SETTING, 'Group.Unified');
    expect(valueOf(live, 'GroupCreationAllowedGroupId')).toBe(own);
    groups.push(String(own));
  }
  expect(groups[0]).not.toBe(groups[1]);
  // the layer's value in CON; the company's stays in ABC
  const lockout = async (code: string) =>
    valueOf(
      await tenantObject<Setting>(code, DIRECTORY_SETTING, 'Password Rule Settings'),
      'LockoutThreshold',
    );
  expect(await lockout('CON')).toBe('5');
  expect(await lockout('ABC')).toBe('10');

  // a capture of each tenant, approved by someone who did not start it, merged by a second person
  for (const code of CLIENTS) {
    const run = await api<{ runId: number; branch: string }>(
      'POST',
      `/capture/clients/${code}/runs`,
      {},
    );
    await expect
      .poll(
        async () =>
          (await api<{ state: string }>('GET', `/capture/clients/${code}/runs/${run.runId}`)).state,
        { timeout: 120_000 },
      )
      .toBe('completed');
    // what the reviewer saw: the capture's drift against main
    const analysis = await api<{
      drift: { summary: { modified: number; added: number; deleted: number } };
    }>('POST', `/capture/clients/${code}/analysis`, { branch: run.branch }, STAFF.priya);
    const { modified, added, deleted } = analysis.drift.summary;
    const pr = await api<{ pullRequestId: number }>(
      'POST',
      `/capture/clients/${code}/pull-requests`,
      {
        branch: run.branch,
        comments: `${code} after the Password Protection deploy: its own group may create groups again.`,
        acknowledged: true,
        summary: { modified, added, deleted },
      },
      STAFF.priya,
    );
    await completeAs(STAFF.alex, pr.pullRequestId);
  }

  // the comparison of each with its effective baseline: its own group id is compliant
  for (const code of CLIENTS) {
    const row = await comparisonRow(page, code, 'Group.Unified');
    await expect(row).toContainText('PASS');
    if (code === 'ABC') {
      await page.screenshot({ path: `${SHOTS}/03-abc-compliant.png`, animations: 'disabled' });
      await expectAccessible(page, 'parameter deploy 03 comparison');
    }
  }
  const layered = await comparisonRow(page, 'CON', 'Password Rule Settings');
  await expect(layered).toContainText('Layer: Healthcare');
  await expect(layered).toContainText('PASS');
  await page.screenshot({ path: `${SHOTS}/04-con-layer-compliant.png`, animations: 'disabled' });
});

test('a layer dropped from CON: the Parameters screen removes what only the layer held from its tenant', async ({
  page,
}) => {
  test.setTimeout(300_000);
  // Healthcare takes over CON's own contractor policy, so CON's tenant holds a policy of the layer
  const promoted = await api<{ pullRequestId: number }>('POST', '/clients/CON/promotions', {
    path: `${CA_POLICY}/${CA900}.json`,
    layer: 'Healthcare',
  });
  await completeAs(STAFF.priya, promoted.pullRequestId);
  // then CON leaves the layer
  const dropped = await api<{ pullRequestId: number }>('POST', '/clients/CON/layers/changes', {
    layers: [],
    reason: 'CON is no longer a clinic',
  });
  await completeAs(STAFF.priya, dropped.pullRequestId);
  expect(await tenantObject('CON', CA_POLICY, CA900)).toBeDefined();

  await page.setViewportSize({ width: 1400, height: 900 });
  await signIn(page, '/fleet/CON/parameters');
  const section = page.getByRole('region', { name: 'Policies of removed layers' });
  await expect(section).toContainText(`${CA_POLICY}/${CA900}.json (layer Healthcare)`, {
    timeout: 60_000,
  });
  await shot(page, '05-dropped-layer-1400x900');
  await expectAccessible(page, 'parameter deploy 05 dropped layer');
  await page.setViewportSize({ width: 1024, height: 768 });
  await shot(page, '06-dropped-layer-1024x768');
  await page.setViewportSize({ width: 1400, height: 900 });

  // keyboard: the confirmation names each policy before anything is removed
  await section.getByRole('button', { name: 'Remove layer policies' }).focus();
  await page.keyboard.press('Enter');
  const confirm = page.getByRole('alertdialog', { name: /Remove 1 policy from CON's tenant\?/ });
  await expect(confirm).toContainText(`${CA900}.json`);
  await expect(confirm).toContainText('The tenant is backed up first');
  await page.screenshot({ path: `${SHOTS}/07-dropped-layer-confirm.png` });
  await expectAccessible(page, 'parameter deploy 07 confirmation');
  await confirm.getByRole('button', { name: 'Remove from the tenant' }).click();
  await expect(section.getByText(/succeeded/)).toBeVisible({ timeout: 120_000 });
  await shot(page, '08-dropped-layer-removed');

  // read back from the tenant: the layer's policy is gone; the client's others are still there
  expect(await tenantObject('CON', CA_POLICY, CA900)).toBeUndefined();
  expect(await tenantObject('CON', CA_POLICY, CA000)).toBeDefined();
});
