import { expect, test, type Locator, type Page } from '@playwright/test';

import { expectAccessible } from '../fixtures/a11y';
import { SAMPLE_STAFF, signIn } from '../fixtures/auth';
import { configRepositoryUrl, devopsTokenFor, withdrawBranch } from '../fixtures/emulators';
import { screenshotsFolder } from '../fixtures/paths';

const SHOTS = screenshotsFolder('roles');
/** A client no other journey captures, so the new capture branch changes nobody's expectations. */
const CLIENT = 'WWI';
const COMMENT =
  'Checked with the WWI service owner: the captured settings match the change request CR-2231.';
/**
 * The capture branch a journey made, with its pull request: withdrawn after it (passed, failed or
 * retried), since every journey shares one embedded default and an open pull request or an extra
 * capture branch of WWI is state no other journey should find.
 */
let madeBranch: string | undefined;

test.afterEach(async () => {
  const branch = madeBranch;
  madeBranch = undefined;
  if (branch) await withdrawBranch(branch);
});

async function shot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true, animations: 'disabled' });
  await expectAccessible(page, name);
}

/** A disabled action names the role it needs, in its tooltip and its accessible description. */
async function expectNeedsRole(page: Page, action: Locator, role: string): Promise<void> {
  await expect(action).toBeVisible();
  await expect(action).toBeDisabled();
  await expect(action).toHaveAccessibleDescription(new RegExp(`needs the Aegis ${role} role`));
  await action.hover();
  await expect(page.getByRole('tooltip')).toContainText(`This action needs the Aegis ${role} role`);
}

test('a Reader sees the change actions disabled, with the role each needs named', async ({
  page,
}) => {
  await signIn(page, '/trigger-capture', SAMPLE_STAFF.nightShift.upn);
  await expect(page.getByText('Role: Reader')).toBeVisible();
  await page.getByLabel('Client').selectOption(CLIENT);
  await expectNeedsRole(page, page.getByRole('button', { name: 'Trigger Capture' }), 'Operator');
  await shot(page, '01-reader-trigger-capture');

  await page.goto('/tenant-backup');
  await page.getByLabel('Tenant').selectOption('ABC');
  await expectNeedsRole(page, page.getByRole('button', { name: 'Manual Backup' }), 'Operator');
  const table = page.getByRole('table', { name: 'Backup history' });
  await expectNeedsRole(page, table.getByRole('button', { name: 'Restore' }).first(), 'Approver');
  // reading stays open: the backup's details
  await expect(table.getByRole('button', { name: 'View' }).first()).toBeEnabled();
  await shot(page, '02-reader-backups');
});

test('an account without any Aegis role gets a page saying so, not an empty portal', async ({
  page,
}) => {
  await page.goto(`/login?returnTo=${encodeURIComponent('/azure-ado-projects')}`);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await page.getByRole('button', { name: /Jordan Lee/ }).click();
  await expect(page.getByRole('heading', { name: 'No access to Aegis' })).toBeVisible();
  await expect(page.getByText(/You are signed in as Jordan Lee/)).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Portal' })).toBeHidden();
  await shot(page, '03-no-role');
  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page).toHaveURL(/\/$/);
});

test('an Operator triggers a capture but cannot approve it; an Approver approves it', async ({
  page,
}) => {
  test.setTimeout(180_000);
  // the Operator captures
  await signIn(page, '/trigger-capture', 'Sam Taylor');
  await expect(page.getByText('Role: Operator')).toBeVisible();
  await page.getByLabel('Client').selectOption(CLIENT);
  await page.getByRole('button', { name: 'Trigger Capture' }).click();
  await expect(page.getByText('Configuration captured successfully!')).toBeVisible({
    timeout: 90_000,
  });
  const branch =
    (await page.getByText(new RegExp(`^client-${CLIENT}-capture-\\d+$`)).textContent()) ?? '';
  madeBranch = branch;
  await page.getByRole('button', { name: 'Go to Review' }).click();
  let review = page.getByRole('region', { name: `Review of ${branch}` });
  await expect(review.getByText(/of \d+ policies reviewed/)).toBeVisible({ timeout: 30_000 });
  const markAll = review.getByRole('button', { name: 'Mark All as Reviewed' });
  if (await markAll.isEnabled()) await markAll.click();
  await expect(review.getByText(/^(\d+) of \1 policies reviewed/)).toBeVisible();
  await expectNeedsRole(
    page,
    review.getByRole('button', { name: 'Continue to Approval' }),
    'Approver',
  );
  await shot(page, '04-operator-cannot-approve');

  // the Approver approves what the Operator captured
  await page.getByRole('button', { name: 'Logout' }).click();
  await signIn(
    page,
    `/capture-management/${CLIENT}?branch=${encodeURIComponent(branch)}`,
    'Priya Shah',
  );
  review = page.getByRole('region', { name: `Review of ${branch}` });
  await expect(review.getByText(/of \d+ policies reviewed/)).toBeVisible({ timeout: 30_000 });
  if (await markAll.isEnabled()) await markAll.click();
  await review.getByRole('button', { name: 'Continue to Approval' }).click();
  const approval = page.getByRole('alertdialog', { name: 'Approve Capture for Merge' });
  await expect(
    approval.getByText(
      `Any Approver other than ${'sam.taylor@aegis-msp.example'}, who started this capture, can approve it.`,
    ),
  ).toBeVisible();
  await approval.getByRole('textbox').fill(COMMENT);
  await approval
    .getByRole('checkbox', { name: 'I acknowledge these changes may impact users' })
    .check();
  await approval.getByRole('button', { name: 'Approve & Continue' }).click();
  await expect(page.getByText('Ready to Merge')).toBeVisible();
  await page.getByRole('button', { name: 'Create Pull Request' }).click();
  await expect(page.getByText('Pull Request Created!')).toBeVisible();
  const prLink = await page
    .getByRole('link', { name: 'View Pull Request in Azure DevOps' })
    .getAttribute('href');
  await shot(page, '05-approver-approved');

  // DevOps records who approved: the description, and the pull request is the Approver's own
  const prId = Number(/pullrequest\/(\d+)/.exec(prLink ?? '')?.[1]);
  const response = await fetch(
    `${await configRepositoryUrl()}/pullrequests/${prId}?api-version=7.1`,
    {
      headers: { authorization: `Bearer ${await devopsTokenFor()}` },
    },
  );
  const pr = (await response.json()) as {
    description: string;
    createdBy: { uniqueName: string };
  };
  expect(pr.description).toContain('Approved by: priya.shah@aegis-msp.example');
  expect(pr.createdBy.uniqueName).toBe('priya.shah@aegis-msp.example');

  // the audit trail tells an Administrator who captured and who approved (issue 18 §5)
  await page.getByRole('button', { name: 'Logout' }).click();
  await signIn(page, '/audit', 'Alex Morgan');
  const filters = page.getByRole('form', { name: 'Audit filters' });
  await filters.getByLabel('Client').selectOption(CLIENT);
  await filters.getByRole('button', { name: 'Apply filters' }).click();
  const trail = page.getByRole('grid');
  // this journey's approval: its pull request (a retried journey may have made another)
  const approved = trail
    .getByRole('row', {
      name: 'Approved a capture (pull request) by priya.shah@aegis-msp.example',
    })
    .filter({ hasText: `Pull request ${prId}` });
  await expect(approved).toHaveCount(1);
  await expect(approved.getByText('Succeeded (201)')).toBeVisible();
  const runId = /-(\d+)$/.exec(branch)?.[1] ?? '';
  const captured = trail.getByRole('row', {
    name: 'Started a capture by sam.taylor@aegis-msp.example',
  });
  await expect(captured.filter({ hasText: `Run ${runId}` })).toHaveCount(1);
  // and where the capture run lives: its log opens from the trail (ADR 042)
  await expect(
    captured.filter({ hasText: `Run ${runId}` }).getByRole('button', { name: 'View log' }),
  ).toBeVisible();
  await approved.getByRole('button', { name: 'Show parameters' }).click();
  await expect(approved.getByLabel(/^Parameters of/)).toContainText(`"client": "${CLIENT}"`);
  await shot(page, '06-administrator-audit-trail');
});

test('the Audit Trail is for Administrators: disabled in the navigation, with the role named', async ({
  page,
}) => {
  await signIn(page, '/audit', 'Priya Shah');
  const item = page
    .getByRole('navigation', { name: 'Portal' })
    .getByRole('link', { name: 'Audit Trail' });
  await expect(item).toHaveAttribute('aria-disabled', 'true');
  await expect(item).toHaveAccessibleDescription(/needs the Aegis Administrator role/);
  await expect(page.getByText('No access to the audit trail')).toBeVisible();
  await shot(page, '07-approver-no-audit');
});
