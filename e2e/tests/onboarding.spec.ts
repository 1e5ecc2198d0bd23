import { expect, test, type Page } from '@playwright/test';

import { expectAccessible } from '../fixtures/a11y';
import { signIn } from '../fixtures/auth';
import { TENANTS_URL, tokenFor } from '../fixtures/emulators';
import { screenshotsFolder } from '../fixtures/paths';

const SHOTS = screenshotsFolder('onboarding');
/** The tenant emulator's scenario switches (issue 10 §5). */

async function setScenarios(
  page: Page,
  tenant: string,
  scenarios: Record<string, unknown> | null,
): Promise<void> {
  const response = scenarios
    ? await page.request.patch(`${TENANTS_URL}/${tenant}/scenarios`, { data: scenarios })
    : await page.request.delete(`${TENANTS_URL}/${tenant}/scenarios`);
  expect(response.ok()).toBe(true);
}

async function fillTenantForm(
  page: Page,
  form: { code: string; domain: string; region: string; subscription?: string },
) {
  await page.getByRole('textbox', { name: /Client Code/ }).fill(form.code);
  await expect(page.getByText('Client Code is valid!')).toBeVisible();
  await page.getByRole('textbox', { name: /Domain/ }).fill(form.domain);
  if (form.subscription) {
    await page.getByRole('radio', { name: 'No' }).first().check();
    await page.getByRole('textbox', { name: /Custom Subscription Name/ }).fill(form.subscription);
  }
  await page.getByLabel(/Region/).selectOption(form.region);
}

/** The identity provider's admin consent page: pick the account, Accept or Cancel. */
async function consent(page: Page, decision: 'Accept' | 'Cancel', shot?: string) {
  await expect(page.getByRole('heading', { name: 'Permissions requested' })).toBeVisible();
  await expect(page.getByText('Aegis - Deploy - Monitor - Fix')).toBeVisible();
  if (shot) await page.screenshot({ path: `${SHOTS}/${shot}`, fullPage: true });
  await page.getByRole('button', { name: decision }).click();
}

/** The Global Administrator's popup: pick the account, Sign in. */
async function globalAdminPopup(page: Page, admin: RegExp, shot?: string) {
  const popupOpened = page.waitForEvent('popup');
  await page.getByRole('button', { name: 'Login as Global Admin' }).click();
  const popup = await popupOpened;
  await expect(popup.getByRole('heading', { name: 'Pick an account' })).toBeVisible();
  await popup.getByRole('radio', { name: admin }).check();
  if (shot) await popup.screenshot({ path: `${SHOTS}/${shot}` });
  const closed = popup.waitForEvent('close');
  await popup.getByRole('button', { name: 'Sign in' }).click();
  await closed;
}

test.describe('tenant onboarding', () => {
  test('onboards a new tenant through admin consent, the Global Admin popup and every role, then deploys to it', async ({
    page,
  }) => {
    test.setTimeout(240_000);
    await signIn(page, '/tenant-baseline-options');
    await expect(page.getByRole('tab', { name: 'On-Board Tenant (New)' })).toHaveAttribute(
      'aria-selected',
      'true',
    );
    await expect(page.getByText(/allow popups for this site/)).toBeVisible();
    await page.getByRole('button', { name: 'Grant Admin Consent' }).click();
    await expect(
      page.getByText(
        'Please complete all required fields with valid information before proceeding.',
      ),
    ).toBeVisible();

    await fillTenantForm(page, { code: 'TSP', domain: 'tailspintoys.com', region: 'uksouth' });
    await page.screenshot({ path: `${SHOTS}/01-onboard-form.png`, fullPage: true });
    await expectAccessible(page, 'onboard form');
    await page.getByRole('button', { name: 'Grant Admin Consent' }).click();

    // The domain resolved to its tenant before the redirect: the tenant-specific consent page.
    await expect(page).toHaveURL(/\/[0-9a-f-]{36}\/adminconsent\?.*&state=\d+$/);
    await consent(page, 'Accept', '02-consent-page.png');
    await expect(page.getByText(/^Admin consent granted for tenant [0-9a-f-]{36}$/)).toBeVisible();
    expect(new URL(page.url()).search).toBe('');
    await expectAccessible(page, 'consent granted');

    await globalAdminPopup(page, /Lucy Harper/, '03-global-admin-popup.png');
    const roles = page.getByRole('list', { name: 'Role assignment' });
    await expect(
      roles.getByText('✅ Exchange Administrator role assigned successfully'),
    ).toBeVisible({
      timeout: 30_000,
    });
    await expect(roles.getByRole('listitem')).toHaveCount(8);
    await expect(roles.getByText(/^❌/)).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Complete Onboarding Process' })).toBeVisible();
    await page.screenshot({ path: `${SHOTS}/04-roles-assigned.png`, fullPage: true });
    await expectAccessible(page, 'roles assigned');

    // Pipeline 178 does the onboarding's real work: the client folder appears on main.
    await page.getByRole('button', { name: 'Complete Onboarding Process' }).click();
    await expect(page.getByText('Pipeline triggered successfully!')).toBeVisible();
    await expect(page.getByText('Pipeline status: completed - succeeded')).toBeVisible({
      timeout: 45_000,
    });
    await page.screenshot({ path: `${SHOTS}/04b-onboarding-pipeline.png`, fullPage: true });
    // The new client is in the comparison, the backups and the capture screens.
    await page.goto('/fetch-json-files');
    await expect(page.getByRole('option', { name: 'TSP' })).toBeAttached({ timeout: 20_000 });
    await page.goto('/tenant-backup');
    await expect(page.getByRole('option', { name: 'TSP' })).toBeAttached();
    await page.goto('/trigger-capture');
    await expect(page.getByRole('option', { name: /^TSP\b/ })).toBeAttached();
    await page.goto('/capture-management');
    await expect(page.getByRole('option', { name: /^TSP\b/ })).toBeAttached();

    // Onboarding made TSP a deploy target (ADR 055): its pipeline is under Tenants, and a preset
    // deploys to it.
    await page.goto('/tenant-baseline-options');
    await page.getByRole('tab', { name: 'Baseline Deployment' }).click();
    await page
      .getByLabel('Pipeline')
      .selectOption({ label: 'TSP Tenant Configuration - Tenants\\TSP' });
    await page.getByRole('button', { name: 'Essential Security' }).click();
    await page.getByRole('button', { name: 'Deploy Selected Components' }).click();
    // it asks first, naming the tenant, the components and the estimate (issue 27.4)
    const confirmDeploy = page.getByRole('alertdialog', { name: 'Deploy selected components' });
    await expect(confirmDeploy).toContainText('Estimated time:');
    await confirmDeploy.getByRole('button', { name: 'Deploy' }).click();
    await expect(page.getByText('Pipeline triggered successfully!')).toBeVisible();
    await expect(page.getByText(/Pipeline status: completed - succeeded/)).toBeVisible({
      timeout: 90_000,
    });
    await expect(page.getByText(/Backup taken before this deploy: backup\/TSP\//)).toBeVisible();
    await page.screenshot({ path: `${SHOTS}/04c-deployed-to-new-tenant.png`, fullPage: true });
  });

  test('slow propagation, then a failing role and a missing subscription leave no Complete button', async ({
    page,
  }) => {
    // Graph finds the enterprise app on the 2nd search after each consent (a rerun included).
    await setScenarios(page, 'LIT', {
      failingRoleAssignment: 'Teams Administrator',
      servicePrincipalFoundOnSearch: 2,
    });
    try {
      await signIn(page, '/tenant-baseline-options');
      await fillTenantForm(page, { code: 'LIT', domain: 'litware.com', region: 'eastus' });
      await page.getByRole('button', { name: 'Grant Admin Consent' }).click();
      await consent(page, 'Accept');
      await globalAdminPopup(page, /Marcus Reed/);
      await expect(
        page.getByText('Enterprise app not found yet, retrying... (Attempt 1/6)'),
      ).toBeVisible();
      const roles = page.getByRole('list', { name: 'Role assignment' });
      // Litware has no 'Options IT': the subscription roles fail with the names that exist.
      await expect(
        roles.getByText(
          "❌ Error assigning Reader role: Subscription 'Options IT' not found. Available subscriptions: Litware Production",
        ),
      ).toBeVisible({ timeout: 30_000 });
      await expect(roles.getByText(/^❌ Error assigning Teams Administrator role: /)).toBeVisible();
      await expect(
        roles.getByText('✅ Exchange Administrator role assigned successfully'),
      ).toBeVisible();
      await expect(page.getByRole('button', { name: 'Complete Onboarding Process' })).toHaveCount(
        0,
      );
      await expect(page.getByRole('button', { name: 'Retry Role Assignment' })).toBeVisible();
      await page.screenshot({ path: `${SHOTS}/05-roles-failed.png`, fullPage: true });
      await expectAccessible(page, 'roles failed');
    } finally {
      await setScenarios(page, 'LIT', null);
    }
  });

  test('consent denied offers a retry after 2 s; the app present in another tenant offers recovery', async ({
    page,
  }) => {
    await setScenarios(page, 'ADW', { consentDenied: true });
    try {
      await signIn(page, '/tenant-baseline-options');
      await fillTenantForm(page, {
        code: 'ADW',
        domain: 'adventureworks.com',
        region: 'germanywestcentral',
      });
      await page.getByRole('button', { name: 'Grant Admin Consent' }).click();
      // adventureworks.com is not a domain of the tenant: the third lookup (the .com swap) finds it
      await expect(page).toHaveURL(/\/[0-9a-f-]{36}\/adminconsent\?/);
      await consent(page, 'Accept');
      await expect(page.getByText('Admin consent failed')).toBeVisible();
      await expect(page.getByText(/access_denied: AADSTS65004/)).toBeVisible();
      await expect(page.getByRole('button', { name: 'Retry Admin Consent' })).toBeVisible();
      await page.screenshot({ path: `${SHOTS}/06-consent-denied.png`, fullPage: true });
      await expectAccessible(page, 'consent denied');

      // Permissions misconfigured in the app registration (AADSTS1003031): the same retry.
      await setScenarios(page, 'ADW', { consentDenied: false, permissionsMisconfigured: true });
      await page.getByRole('button', { name: 'Retry Admin Consent' }).click();
      await consent(page, 'Accept');
      await expect(page.getByText(/access_denied: AADSTS1003031/)).toBeVisible();

      await setScenarios(page, 'ADW', {
        permissionsMisconfigured: false,
        servicePrincipalPresentInTenant: '11111111-2222-4333-8444-555555555555',
      });
      await page.getByRole('button', { name: 'Retry Admin Consent' }).click();
      await consent(page, 'Accept');
      await expect(page.getByRole('radiogroup', { name: 'Recovery choice' })).toBeVisible();
      await expect(page.getByText(/in tenant 11111111-2222-4333-8444-555555555555/)).toBeVisible();
      await page.screenshot({ path: `${SHOTS}/07-recovery-choices.png`, fullPage: true });
      await expectAccessible(page, 'recovery choices');
      await page.getByRole('radio', { name: /Enter the tenant ID manually/ }).check();
      await page.getByRole('button', { name: 'Continue' }).click();
      await expectAccessible(page, 'manual tenant id');
      await page.getByRole('textbox', { name: 'Tenant ID' }).fill('1234');
      await page.getByRole('button', { name: 'Continue' }).click();
      await expect(page.getByText('Invalid Tenant ID format. Please try again.')).toBeVisible();
    } finally {
      await setScenarios(page, 'ADW', null);
    }
  });

  test('legacy onboarding runs pipeline 75 with the administrator credentials', async ({
    page,
  }) => {
    await signIn(page, '/tenant-baseline-options');
    await page
      .getByRole('button', { name: 'Legacy onboarding (administrator credentials)' })
      .click();
    const form = page.locator('form').filter({
      has: page.getByRole('button', { name: 'Start Legacy Onboarding' }),
    });
    await form.getByRole('button', { name: 'Start Legacy Onboarding' }).click();
    await expect(
      form.getByText('Please fill in: Client Code, Domain, Username, Password'),
    ).toBeVisible();
    // An onboarded client (tenant pipeline, app pipeline, configuration): the pipeline's every step
    // finds its work done, so no journey's state moves (WWI has no tenant pipeline: 75 makes one).
    await form.getByRole('textbox', { name: /Client Code/ }).fill('ABC');
    await form.getByRole('textbox', { name: /Domain/ }).fill('abcaccounting.com');
    await form.getByRole('textbox', { name: /Username/ }).fill('admin@abcaccounting.com');
    await form.getByLabel(/Password/).fill('Legacy-Not-Logged-1');
    await page.screenshot({ path: `${SHOTS}/07b-legacy-onboarding.png`, fullPage: true });
    await expectAccessible(page, 'legacy onboarding');
    await form.getByRole('button', { name: 'Start Legacy Onboarding' }).click();
    await expect(form.getByText('Pipeline triggered successfully!')).toBeVisible();
    await expect(form.getByLabel(/Password/)).toHaveValue('');
    await expect(form.getByText('Pipeline status: completed - succeeded')).toBeVisible({
      timeout: 45_000,
    });
  });
});

test('the Global Admin tool gives Reader on Options IT without an Aegis sign-in', async ({
  page,
}) => {
  await page.goto('/global-admin-onboard');
  await expect(page.getByRole('heading', { name: 'Global Admin Onboarding' })).toBeVisible();
  await expect(page.getByText('Logged in user:')).toHaveCount(0);
  await globalAdminPopup(page, /Hannah Clarke/);
  await expect(page.getByText(/Signed in as Hannah Clarke/)).toBeVisible();
  const appName = page.getByRole('textbox', { name: /Enterprise App Name/ });
  await appName.fill('No Such App');
  await page.getByRole('button', { name: /Assign Reader Role/ }).click();
  await expect(page.getByText("Enterprise app 'No Such App' not found.")).toBeVisible();
  // ABC consented long ago: the product's own enterprise app is there, found by name
  await appName.fill('Aegis - Deploy - Monitor - Fix');
  await page.getByRole('button', { name: /Assign Reader Role/ }).click();
  await expect(
    page.getByText(
      /Reader role assigned to 'Aegis - Deploy - Monitor - Fix' on the subscription 'Options IT'/,
    ),
  ).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/08-global-admin-tool.png`, fullPage: true });
  await expectAccessible(page, 'global admin tool');
  // Litware has no 'Options IT': the answer names the subscriptions it has
  await globalAdminPopup(page, /Marcus Reed/);
  await expect(page.getByText(/Signed in as Marcus Reed/)).toBeVisible();
  await appName.fill('Microsoft Graph');
  await page.getByRole('button', { name: /Assign Reader Role/ }).click();
  await expect(
    page.getByText(
      "Subscription 'Options IT' not found. Available subscriptions: Litware Production",
    ),
  ).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/08b-global-admin-no-subscription.png`, fullPage: true });
});

/** Creates '{code}WorkstationApps' through the API, as Create New App Deploy Table does. */
async function createAppTable(page: Page, code: string): Promise<void> {
  const created = await page.request.post('/api/app-tables', {
    data: { clientCode: code },
    headers: { authorization: `Bearer ${await tokenFor()}` },
  });
  expect([201, 409]).toContain(created.status());
}

test('new app-deploy onboarding: consent, Global Admin, the enterprise app found on the 4th search', async ({
  page,
}) => {
  test.setTimeout(120_000);
  await createAppTable(page, 'ADW');
  await setScenarios(page, 'ADW', { servicePrincipalFoundOnSearch: 4 });
  try {
    await signIn(page, '/AppDeploy-Onboarding-New');
    await page.getByRole('textbox', { name: /Client Code/ }).fill('ADW');
    await expect(page.getByText('Table found for client code ADW.')).toBeVisible();
    await page.getByRole('textbox', { name: /Domain/ }).fill('adventureworks.com');
    await page.getByRole('button', { name: 'Login as Global Admin' }).click();
    await consent(page, 'Accept');
    await expect(
      page.getByText("Admin consent granted. Sign in as the client's Global Administrator."),
    ).toBeVisible();
    await expect(page.getByRole('textbox', { name: 'Tenant ID' })).toHaveValue(/^[0-9a-f-]{36}$/);
    await expect(page.getByRole('textbox', { name: /Client Code/ })).toHaveValue('ADW');
    await globalAdminPopup(page, /Lena Fischer/);
    await expect(
      page.getByText('Enterprise app not found yet, retrying... (Attempt 1/6)'),
    ).toBeVisible();
    await page.screenshot({ path: `${SHOTS}/09-app-search-retrying.png`, fullPage: true });
    const card = page.getByRole('region', { name: 'Authentication successful' });
    await expect(card).toBeVisible({ timeout: 40_000 });
    await expect(card.getByText('Status: Active')).toBeVisible();
    await expect(card.getByText(/^Enterprise App ID: [0-9a-f-]{36}$/)).toBeVisible();
    await page.screenshot({ path: `${SHOTS}/10-app-found.png`, fullPage: true });
    await expectAccessible(page, 'app deploy onboarding found');
    // Pipeline 191 does the app-deploy onboarding's work: ADW's app pipeline in \\ADW, nothing
    // under Tenants (ADR 055).
    await page.getByRole('button', { name: 'Complete App Deploy Onboarding' }).click();
    await expect(page.getByText('Pipeline status: completed - succeeded')).toBeVisible({
      timeout: 45_000,
    });
    await page.screenshot({ path: `${SHOTS}/10b-app-deploy-pipeline.png`, fullPage: true });
    await page.getByRole('button', { name: 'View log' }).click();
    await expect(
      page.getByText(/Created pipeline 'ADW - Workstation App Deployment' \(\d+\) in \\ADW/),
    ).toBeVisible();
    await page.keyboard.press('Escape');
    // onboarded for app deployment now: its app pipeline is the marker (ADR 055)
    await page.goto('/AppDeploy-Onboarding-New');
    await page.getByRole('textbox', { name: /Client Code/ }).fill('ADW');
    await expect(page.getByText('ADW has already been onboarded.')).toBeVisible();
  } finally {
    await setScenarios(page, 'ADW', null);
  }
});

test('old app-deploy onboarding: the code checks, then pipeline 55 with the password as a secret', async ({
  page,
}) => {
  await createAppTable(page, 'QRS');
  await signIn(page, '/AppDeploy-Onboarding');
  const code = page.getByRole('textbox', { name: /Client Code/ });
  await code.fill('ABC');
  await expect(page.getByText('ABC has already been onboarded.')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Submit' })).toBeDisabled();
  await code.fill('XYZ');
  await expect(
    page.getByText('No tables found starting with XYZ. Please create Client App Table!'),
  ).toBeVisible();
  // WGB has its table and its app pipeline (seeded): onboarded for app deployment already
  await code.fill('WGB');
  await expect(page.getByText('WGB has already been onboarded.')).toBeVisible();
  await code.fill('QRS');
  await expect(page.getByText('Table found for client code QRS.')).toBeVisible();
  await page.getByRole('button', { name: 'Submit' }).click();
  await expect(page.getByText('Please fill in all the required fields.')).toBeVisible();
  await page.getByRole('textbox', { name: /Domain/ }).fill('qrs.example');
  await page.getByRole('textbox', { name: /Username/ }).fill('admin@qrs.example');
  await page.getByLabel(/Password/).fill('Not-Logged-1');
  await page.screenshot({ path: `${SHOTS}/11-app-deploy-old.png`, fullPage: true });
  await expectAccessible(page, 'old app deploy onboarding');
  await page.getByRole('button', { name: 'Submit' }).click();
  await expect(page.getByText('Pipeline triggered successfully!')).toBeVisible();
  await expect(page.getByLabel(/Password/)).toHaveValue('');
  await expect(page.getByText('Pipeline status: completed - succeeded')).toBeVisible({
    timeout: 45_000,
  });
  // the password is a secret variable: not in the run's log, nor in the audit trail
  await page.getByRole('button', { name: 'View log' }).click();
  const log = page.getByRole('dialog');
  await expect(log.getByText(/Created pipeline 'QRS - Workstation App Deployment'/)).toBeVisible();
  await expect(log).not.toContainText('Not-Logged-1');
  await page.keyboard.press('Escape');
  const audit = await page.request.get('/api/audit', {
    headers: { authorization: `Bearer ${await tokenFor()}` },
  });
  expect(audit.ok()).toBe(true);
  const trail = await audit.text();
  expect(trail).toContain('/api/onboarding/app-deploy/runs');
  expect(trail).not.toContain('Not-Logged-1');
});
