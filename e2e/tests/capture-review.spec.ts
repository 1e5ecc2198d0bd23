import { expect, test } from '@playwright/test';

import { expectAccessible } from '../fixtures/a11y';
import { SAMPLE_STAFF, signIn } from '../fixtures/auth';
import { configRepositoryUrl, devopsTokenFor } from '../fixtures/emulators';
import { notice } from '../fixtures/notices';
import { screenshotsFolder } from '../fixtures/paths';

const SHOTS = screenshotsFolder('capture-review');
const SEEDED = 'client-ABC-capture-1042';
const COMMENT =
  'Reviewed with the client: CA000 report-only was requested by their CISO during the rollout.';

test('review a drifted capture to a pull request, complete it in DevOps, see it merged', async ({
  page,
}) => {
  test.setTimeout(120_000);
  await signIn(page, '/capture-management', 'Priya Shah');
  await expect(page.getByText('Select a Client to Begin')).toBeVisible();
  await page.screenshot({
    path: `${SHOTS}/05-management-empty.png`,
    fullPage: true,
    animations: 'disabled',
  });
  await expectAccessible(page, '05-management-empty');
  await page.getByLabel('Client').selectOption('ABC');
  // the newest unmerged capture is selected (another journey may have captured ABC since the
  // seed), then the seeded drifted one is opened by its address
  await expect(page).toHaveURL(/\/capture-management\/ABC\?branch=client-ABC-capture-\d+$/);
  await page.goto(`/capture-management/ABC?branch=${SEEDED}`);
  await expect(page).toHaveURL(new RegExp(`/capture-management/ABC\\?branch=${SEEDED}$`));
  await expect(page.getByRole('button', { name: `Viewing ${SEEDED}` })).toBeVisible();
  const review = page.getByRole('region', { name: `Review of ${SEEDED}` });
  await expect(review.getByText(/of \d+ policies reviewed/)).toBeVisible({ timeout: 30_000 });
  await page.screenshot({
    path: `${SHOTS}/06-review-step.png`,
    fullPage: true,
    animations: 'disabled',
  });
  await expectAccessible(page, '06-review-step');

  // the drift of one policy in drift mode
  await review
    .getByRole('button', {
      name: 'View Details: change ConditionalAccess/Policy/CA000-Global-IdentityProtection-AnyApp-AnyPlatform-MFA.json',
    })
    .click();
  const details = page.getByRole('dialog', { name: 'Policy Details' });
  await expect(
    details.getByRole('cell', { name: 'enabledForReportingButNotEnforced' }),
  ).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/07-policy-drift.png`, animations: 'disabled' });
  await expectAccessible(page, '07-policy-drift');
  await details.getByRole('button', { name: 'Close' }).click();

  // exclude a property and re-analyse: the file drops out, the reviewed set empties
  await review
    .getByRole('button', { name: /^Mark Reviewed: change ConditionalAccess\/Policy\/CA000/ })
    .click();
  await expect(review.getByText(/^1 of \d+ policies reviewed/)).toBeVisible();
  await expect(
    review.getByRole('button', {
      name: 'View Details: change Exchange/OrganizationConfig/Organization Config.json',
    }),
  ).toBeVisible();
  await review.getByRole('button', { name: 'Update Exclusions & Re-analyze' }).click();
  const exclusions = page.getByRole('dialog', { name: 'Update Excluded Properties' });
  await exclusions.getByRole('textbox').fill('MailTipsLargeAudienceThreshold');
  await page.screenshot({ path: `${SHOTS}/08-exclusions.png`, animations: 'disabled' });
  await expectAccessible(page, '08-exclusions');
  await exclusions.getByRole('button', { name: 'Apply & Re-analyze' }).click();
  await expect(
    review.getByRole('button', {
      name: 'View Details: change Exchange/OrganizationConfig/Organization Config.json',
    }),
  ).toBeHidden();
  await expect(review.getByText(/^0 of \d+ policies reviewed \(0%\)/)).toBeVisible();

  const proceed = review.getByRole('button', { name: 'Continue to Approval' });
  await expect(proceed).toBeDisabled();
  await review.getByRole('button', { name: 'Mark All as Reviewed' }).click();
  await expect(review.getByText(/^(\d+) of \1 policies reviewed \(100%\)/)).toBeVisible();
  await proceed.click();

  const approval = page.getByRole('alertdialog', { name: 'Approve Capture for Merge' });
  await expect(approval.getByText('Minimum 50 characters required (50 more)')).toBeVisible();
  const approve = approval.getByRole('button', { name: 'Approve & Continue' });
  await approval.getByRole('textbox').fill(COMMENT);
  await expect(approve).toBeDisabled();
  await approval
    .getByRole('checkbox', { name: 'I acknowledge these changes may impact users' })
    .check();
  await page.screenshot({ path: `${SHOTS}/09-approval.png`, animations: 'disabled' });
  await expectAccessible(page, '09-approval');
  await approve.click();
  await expect(page.getByRole('listitem', { name: 'Review completed successfully' })).toBeVisible();

  await expect(page.getByText('Ready to Merge')).toBeVisible();
  await expect(page.getByText(`Delete the capture branch ${SEEDED} after the merge`)).toBeVisible();
  await page.screenshot({
    path: `${SHOTS}/10-ready-to-merge.png`,
    fullPage: true,
    animations: 'disabled',
  });
  await expectAccessible(page, '10-ready-to-merge');
  await page.getByRole('button', { name: 'Create Pull Request' }).click();
  await expect(page.getByText('Pull Request Created!')).toBeVisible();
  // the success step returns to the selector after 5 s: read it at once
  const prLink = await page
    .getByRole('link', { name: 'View Pull Request in Azure DevOps' })
    .getAttribute('href');
  await expect(page.getByText('Awaiting Azure DevOps Approval')).toBeVisible();
  await expect(
    page.getByText(/Returning to capture selector in [1-5] seconds\.\.\./),
  ).toBeVisible();
  await page.screenshot({
    path: `${SHOTS}/11-success.png`,
    fullPage: true,
    animations: 'disabled',
  });
  await expectAccessible(page, '11-success');
  const prId = Number(/pullrequest\/(\d+)/.exec(prLink ?? '')?.[1]);
  await expect(
    page.getByRole('listitem', {
      name: `Pull Request #${prId} created! Awaiting approval in Azure DevOps.`,
    }),
  ).toBeVisible({ timeout: 15_000 });
  await expect(page).toHaveURL(/\/capture-management\/ABC$/);
  // nothing went wrong on the way: no failure or refusal was told
  await expect(notice(page, /^(Failed|Please review)/)).toHaveCount(0);

  // the pull request carries the approval; someone completes it in DevOps
  const token = await devopsTokenFor(SAMPLE_STAFF.alex.upn);
  const url = `${await configRepositoryUrl()}/pullrequests/${prId}?api-version=7.1`;
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  const pr = (await (await fetch(url, { headers })).json()) as { description: string };
  expect(pr.description).toContain('Approved by: priya.shah@aegis-msp.example');
  expect(pr.description).toContain(COMMENT);
  // main's branch policy (ADR 051): Priya created it, so a second person's approval completes it
  const alexId = '5b1f6a0e-2f4c-4d8e-9a51-7c3e2b9d4f10';
  const vote = await fetch(url.replace('?', `/reviewers/${alexId}?`), {
    method: 'PUT',
    headers,
    body: JSON.stringify({ vote: 10 }),
  });
  expect(vote.status).toBe(200);
  const done = await fetch(url, {
    method: 'PATCH',
    headers,
    body: JSON.stringify({ status: 'completed' }),
  });
  expect(done.status).toBe(200);

  await page.getByRole('button', { name: 'Refresh' }).click();
  await expect(page.getByRole('group', { name: `Merged ${SEEDED}` })).toBeVisible();
  await expect(page.getByRole('button', { name: `Review ${SEEDED}` })).toBeHidden();
  await page.screenshot({ path: `${SHOTS}/12-merged.png`, fullPage: true, animations: 'disabled' });
  await expectAccessible(page, '12-merged');

  // the Baseline Compliance tab clears the branch from the address and shows the report
  await page.getByRole('tab', { name: 'Baseline Compliance' }).click();
  await expect(page).toHaveURL(/\/capture-management\/ABC\?view=baseline$/);
  await expect(page.getByText(/vs company baseline \(main branch\)/)).toBeVisible({
    timeout: 30_000,
  });
  await page.getByRole('tab', { name: 'Capture Review' }).click();
  await expect(page).toHaveURL(/\/capture-management\/ABC$/);
});

test('trigger a capture, follow it, and go to its review', async ({ page }) => {
  test.setTimeout(120_000);
  await signIn(page, '/trigger-capture');
  await expect(page.getByRole('heading', { name: 'Trigger Configuration Capture' })).toBeVisible();
  const trigger = page.getByRole('button', { name: 'Trigger Capture' });
  await expect(trigger).toBeDisabled();
  await page.getByLabel('Client').selectOption('ABC');
  await page.getByRole('button', { name: 'Advanced Options' }).click();
  await expect(page.getByLabel('Baseline Version')).toHaveValue('1.0.0');
  await page.getByLabel('Excluded Properties (optional)').fill('WhenChanged, lastModifiedDateTime');
  await page.screenshot({
    path: `${SHOTS}/01-trigger-capture.png`,
    fullPage: true,
    animations: 'disabled',
  });
  await expectAccessible(page, '01-trigger-capture');
  await trigger.click();
  await expect(page.getByRole('button', { name: 'Capturing...' })).toBeDisabled();
  await expect(page.getByText('In Progress')).toBeVisible();
  await expect(
    page.getByText(
      /^(Pipeline started \(run #\d+\)\. Capturing configuration\.\.\.|Capturing configuration\.\.\. \(\w+\))$/,
    ),
  ).toBeVisible();
  await page.screenshot({
    path: `${SHOTS}/02-capturing.png`,
    fullPage: true,
    animations: 'disabled',
  });
  await expectAccessible(page, '02-capturing');
  await expect(page.getByText('Configuration captured successfully!')).toBeVisible({
    timeout: 60_000,
  });
  await expect(page.getByText('100% Complete')).toBeVisible();
  const branch = (await page.getByText(/^client-ABC-capture-\d+$/).textContent()) ?? '';
  await page.screenshot({
    path: `${SHOTS}/03-captured.png`,
    fullPage: true,
    animations: 'disabled',
  });
  await expectAccessible(page, '03-captured');
  // the capture run's log (ADR 042): what the pipeline wrote, closed with Escape
  const viewLog = page.getByRole('button', { name: 'View log' });
  await viewLog.click();
  const dialog = page.getByRole('dialog', { name: /^Log of run #\d+$/ });
  const log = dialog.getByLabel(/^Log of run #\d+$/);
  await expect(log).toContainText('client-ABC-capture-');
  await page.screenshot({ path: `${SHOTS}/03b-capture-log.png`, animations: 'disabled' });
  await expectAccessible(page, '03b-capture-log');
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(viewLog).toBeFocused();
  await page.getByRole('button', { name: 'Go to Review' }).click();
  await expect(page).toHaveURL(new RegExp(`/capture-management/ABC\\?branch=${branch}$`));
  // the capture pipeline wrote the branch: it is listed and its review opens
  await expect(page.getByRole('button', { name: `Viewing ${branch}` })).toBeVisible();
  const review = page.getByRole('region', { name: `Review of ${branch}` });
  await expect(review.getByText(/of \d+ policies reviewed/)).toBeVisible({ timeout: 30_000 });
  await page.screenshot({
    path: `${SHOTS}/04-go-to-review.png`,
    fullPage: true,
    animations: 'disabled',
  });
  await expectAccessible(page, '04-go-to-review');
});
