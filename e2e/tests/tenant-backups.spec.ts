import { expect, test, type Page } from '@playwright/test';

import { expectAccessible } from '../fixtures/a11y';
import { signIn } from '../fixtures/auth';
import { DEVOPS_URL, devopsGet } from '../fixtures/emulators';
import { notice } from '../fixtures/notices';
import { screenshotsFolder } from '../fixtures/paths';

const SHOTS = screenshotsFolder('tenant-backups');

function history(page: Page) {
  return page.getByRole('table', { name: 'Backup history' });
}

function rows(page: Page) {
  return history(page)
    .getByRole('row')
    .filter({ has: page.getByRole('cell') });
}

function statusCard(page: Page) {
  return page.getByRole('group', { name: 'Status' });
}

async function chooseTenant(page: Page, code: string): Promise<void> {
  await page.getByLabel('Tenant').selectOption(code);
}

/** Pull requests of the configuration repository, read from the emulator's REST API. */
async function pullRequests(): Promise<
  { pullRequestId: number; sourceRefName: string; title: string; labels?: { name: string }[] }[]
> {
  return (
    await devopsGet<{ value: Awaited<ReturnType<typeof pullRequests>> }>(
      '/pullrequests?searchCriteria.status=all&api-version=7.1',
    )
  ).value;
}

test.afterEach(async () => {
  await fetch(`${DEVOPS_URL}/_emulator/faults`, { method: 'DELETE' });
});

test('tenant backups: choose a tenant, back up, search, view, compare, download, restore', async ({
  page,
}) => {
  test.setTimeout(240_000);
  await signIn(page, '/tenant-backup');
  await expect(page.getByRole('heading', { name: 'Tenant Backups' })).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/01-no-tenant.png`, fullPage: true });
  await expectAccessible(page, 'tenant-backups 01-no-tenant');

  // A tenant whose only tag breaks the date rule has no backups.
  await chooseTenant(page, 'WWI');
  await expect(page.getByText('No backups found for this tenant')).toBeVisible();
  await expect(statusCard(page)).toContainText('No Backups');
  await page.screenshot({ path: `${SHOTS}/02-empty.png`, fullPage: true });

  // NWT: the history, paged by 10, real storage figure.
  await chooseTenant(page, 'NWT');
  await expect(rows(page)).toHaveCount(10);
  await expect(page.getByText(/^Page 1 of \d+$/)).toBeVisible();
  await expect(page.getByRole('group', { name: 'Storage Used' })).toContainText(
    /\d+(\.\d)? (KB|MB|GB)/,
  );
  await expect(statusCard(page)).toContainText('Healthy');
  await expect(page.getByRole('group', { name: 'Quick stats' })).toContainText('backups');
  const header = history(page).getByRole('columnheader');
  await expect(header).toHaveText(['Date & Time', 'Backup Tag', 'Type', 'Status', 'Actions']);
  await page.screenshot({ path: `${SHOTS}/03-history.png`, fullPage: true });
  await expectAccessible(page, 'tenant-backups 03-history');
  const before = await rows(page).first().getByRole('cell').nth(1).textContent();

  // Manual backup: Backing up..., Running, then the new Manual backup after the reload.
  await page.getByRole('button', { name: 'Manual Backup' }).click();
  await expect(page.getByRole('button', { name: 'Backing up...' })).toBeDisabled();
  await expect(statusCard(page)).toContainText('Running');
  await page.screenshot({ path: `${SHOTS}/04-backing-up.png`, fullPage: true });
  await expect(page.getByRole('button', { name: 'Manual Backup' })).toBeEnabled({
    timeout: 20_000,
  });
  const newest = rows(page).first();
  await expect(newest.getByRole('cell').nth(1)).not.toHaveText(before ?? '');
  await expect(newest.getByRole('cell').nth(1)).toHaveText(/^backup\/NWT\/\d{8}_\d{6}$/);
  await expect(newest.getByRole('cell').nth(2)).toHaveText('Manual');
  await expect(newest.getByRole('cell').nth(3)).toHaveText('Success');
  const manualTag = (await newest.getByRole('cell').nth(1).textContent()) ?? '';
  // the backup run's log names the tag it made (ADR 042)
  const viewLog = page.getByRole('button', { name: 'View log' });
  await viewLog.click();
  const logDialog = page.getByRole('dialog', { name: /^Log of run #\d+$/ });
  await expect(logDialog.getByLabel(/^Log of run #\d+$/)).toContainText(
    `Created tag refs/tags/${manualTag}`,
  );
  await page.screenshot({ path: `${SHOTS}/04b-backup-log.png`, animations: 'disabled' });
  await expectAccessible(page, 'tenant-backups 04b-backup-log');
  await page.keyboard.press('Escape');
  await expect(logDialog).toBeHidden();
  await expect(viewLog).toBeFocused();

  // Search and date filter.
  const search = page.getByRole('searchbox', { name: 'Search backups' });
  await search.fill('SCHEDULED');
  await expect(rows(page).first()).toContainText('scheduled_');
  for (const type of await rows(page).getByRole('cell').nth(2).allTextContents()) {
    expect(type).toBe('Scheduled');
  }
  await search.fill(manualTag.slice(-15));
  await expect(rows(page)).toHaveCount(1);
  await search.fill('');
  await page.getByRole('combobox', { name: 'Date filter' }).selectOption('Today');
  await expect(rows(page).first().getByRole('cell').nth(1)).toHaveText(manualTag);
  await page.getByRole('combobox', { name: 'Date filter' }).selectOption('Past Week');
  await expect(page.getByText(/^Page \d+ of \d+$/)).toBeHidden();
  await page.getByRole('combobox', { name: 'Date filter' }).selectOption('Past Month');
  await expect(page.getByText(/^Page 1 of \d+$/)).toBeVisible();
  await search.fill('no-such-backup');
  // The tenant has backups: the page says the search matches none of them and offers to clear it.
  await expect(page.getByText('No backups match "no-such-backup"')).toBeVisible();
  await expect(page.getByText('No backups found for this tenant')).toBeHidden();
  await page.getByRole('button', { name: 'Clear filters' }).click();
  await expect(search).toHaveValue('');
  await page.getByRole('combobox', { name: 'Date filter' }).selectOption('Past Month');
  await page.getByRole('combobox', { name: 'Date filter' }).selectOption('All Time');

  // View.
  await rows(page).first().getByRole('button', { name: 'View' }).click();
  const details = page.getByRole('dialog', { name: 'Backup Details' });
  await expect(details).toContainText(manualTag);
  await expect(details).toContainText('Manual');
  await expect(details.getByLabel('Backup configuration')).toContainText('"M365Config/Resources/');
  await page.screenshot({ path: `${SHOTS}/05-details.png` });
  await expectAccessible(page, 'tenant-backups 05-details');
  await details.getByRole('button', { name: 'Close' }).click();
  await expect(details).toBeHidden();
  // Focus goes back to the button that opened the dialog.
  await expect(rows(page).first().getByRole('button', { name: 'View' })).toBeFocused();

  // ABC's oldest backup differs from today's configuration.
  await chooseTenant(page, 'ABC');
  await expect(rows(page)).toHaveCount(10);
  const pager = page.getByText(/^Page 1 of \d+$/);
  const pages = Number((await pager.textContent())?.split(' of ')[1]);
  for (let i = 1; i < pages; i++) await page.getByRole('button', { name: 'Next' }).click();
  await expect(page.getByText(`Page ${pages} of ${pages}`)).toBeVisible();
  const oldest = rows(page).last();
  const oldestTag = (await oldest.getByRole('cell').nth(1).textContent()) ?? '';

  await oldest.getByRole('button', { name: 'Compare' }).click();
  const comparison = page.getByRole('dialog', { name: 'Configuration Comparison' });
  await expect(comparison).toContainText(`${oldestTag} vs Current Configuration`);
  await expect(comparison.getByText(/^Changes: \d+$/)).toBeVisible();
  await expect(comparison.getByText(/^Additions: \d+$/)).toBeVisible();
  await expect(comparison.getByText(/^Deletions: \d+$/)).toBeVisible();
  await expect(comparison.getByRole('columnheader', { name: 'Setting' }).first()).toBeVisible();
  await expect(comparison.getByRole('columnheader', { name: 'Match' }).first()).toBeVisible();
  await expect(comparison.getByRole('img', { name: 'No match' }).first()).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/06-comparison.png` });
  await expectAccessible(page, 'tenant-backups 06-comparison');
  await comparison.getByRole('img', { name: 'No match' }).first().scrollIntoViewIfNeeded();
  await page.screenshot({ path: `${SHOTS}/06b-comparison-differences.png` });
  // Escape closes it, and the keyboard user is back on the Compare button.
  await page.keyboard.press('Escape');
  await expect(comparison).toBeHidden();
  await expect(oldest.getByRole('button', { name: 'Compare' })).toBeFocused();

  // Download.
  const downloading = page.waitForEvent('download');
  await oldest.getByRole('button', { name: 'Download' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/^ABC_backup_[\w-]+\.zip$/);

  // Restore: an in-page confirmation (never the browser's confirm()), the pull request number,
  // and the pull request in the emulator.
  const confirmRestore = async () => {
    await oldest.getByRole('button', { name: 'Restore' }).click();
    const prompt = page.getByRole('alertdialog', { name: 'Restore backup' });
    await expect(prompt).toContainText(
      `Are you sure you want to restore from backup ${oldestTag}? This will create a pull request for review.`,
    );
    await expect(prompt.getByRole('button', { name: 'Cancel' })).toBeFocused();
    return prompt;
  };
  let prompt = await confirmRestore();
  await page.screenshot({ path: `${SHOTS}/07a-restore-confirm.png` });
  await expectAccessible(page, 'tenant-backups 07a-restore-confirm');
  await page.keyboard.press('Escape');
  await expect(prompt).toBeHidden();
  await expect(oldest.getByRole('button', { name: 'Restore' })).toBeFocused();
  prompt = await confirmRestore();
  await prompt.getByRole('button', { name: 'Restore' }).click();
  const created = notice(page, /^Pull request #(\d+) has been created for review\.$/);
  await expect(created).toBeVisible();
  const match = /#(\d+)/.exec((await created.textContent()) ?? '');
  expect(match).not.toBeNull();
  const id = Number(match?.[1]);
  await created.getByRole('button', { name: 'Dismiss' }).click();
  await expect(created).toBeHidden();
  const pr = (await pullRequests()).find((p) => p.pullRequestId === id);
  expect(pr?.sourceRefName).toBe(
    `refs/heads/restore/ABC/${oldestTag.replace(/[^A-Za-z0-9]/g, '-')}`,
  );
  expect(pr?.title).toContain(oldestTag);
  expect(pr?.labels?.map((l) => l.name)).toEqual(expect.arrayContaining(['restore', 'ABC']));

  // The same restore again: nothing is overwritten, and the page says why.
  prompt = await confirmRestore();
  await prompt.getByRole('button', { name: 'Restore' }).click();
  // The server's reason, not 'Please try again.' (which could never succeed): told as an alert
  // and kept on the page.
  const refused =
    /^Failed to create PR: A restore branch .* already exists for backup .* Nothing was overwritten/;
  await expect(notice(page, refused)).toBeVisible();
  await expect(page.getByRole('alert').filter({ hasText: refused })).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/07-restore-conflict.png`, fullPage: true });
  await expectAccessible(page, 'tenant-backups 07-restore-conflict');
  expect((await pullRequests()).filter((p) => p.sourceRefName === pr?.sourceRefName)).toHaveLength(
    1,
  );
});

test('a confirmation cancelled inside the comparison dialog leaves the dialog usable by role', async ({
  page,
}) => {
  // axe over the comparison's many rows is slow on a busy 2-core machine (a budget, not a speed check)
  test.setTimeout(240_000);
  await signIn(page, '/tenant-backup');
  await chooseTenant(page, 'ABC');
  await expect(rows(page)).toHaveCount(10);
  await rows(page).first().getByRole('button', { name: 'Compare' }).click();
  const comparison = page.getByRole('dialog', { name: 'Configuration Comparison' });
  const restoreThis = comparison.getByRole('button', { name: 'Restore This Backup' });
  await expect(restoreThis).toBeEnabled();
  for (const close of ['Cancel', 'Escape'] as const) {
    await restoreThis.click();
    const prompt = page.getByRole('alertdialog', { name: 'Restore backup' });
    await expect(prompt.getByRole('button', { name: 'Cancel' })).toBeFocused();
    if (close === 'Cancel') await prompt.getByRole('button', { name: 'Cancel' }).click();
    else await page.keyboard.press('Escape');
    await expect(prompt).toBeHidden();
    // Found by role again: nothing is left aria-hidden, and focus is back on the opener.
    await expect(comparison).toBeVisible();
    await expect(restoreThis).toBeFocused();
    await expect(page.locator('[aria-hidden="true"]').filter({ has: comparison })).toHaveCount(0);
  }
  await expectAccessible(page, 'tenant-backups 06d-comparison-after-cancelled-restore');
  await comparison.getByRole('button', { name: 'Close' }).first().click();
  await expect(comparison).toBeHidden();
});

test('tenant backups stay usable while DevOps fails', async ({ page }) => {
  await signIn(page, '/tenant-backup');
  await chooseTenant(page, 'CON');
  await expect(statusCard(page)).toContainText('Warning');
  await fetch(`${DEVOPS_URL}/_emulator/faults`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      kind: 'error',
      statusCode: 500,
      pathPattern: '/refs',
      message: 'TF400898: An internal error occurred.',
    }),
  });
  await chooseTenant(page, 'FAB');
  await expect(
    page.getByText('Backups for FAB could not be loaded. Use Refresh to try again.'),
  ).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/08-devops-failing.png`, fullPage: true });
  await expectAccessible(page, 'tenant-backups 08-devops-failing');
  await fetch(`${DEVOPS_URL}/_emulator/faults`, { method: 'DELETE' });
  await page.getByRole('button', { name: 'Refresh' }).click();
  await expect(rows(page)).toHaveCount(10);
  await expect(statusCard(page)).toContainText('Critical');

  await page.getByRole('button', { name: 'Configure Schedule' }).click();
  await expect(page).toHaveURL(/\/ClientPipelineSchedules\?client=FAB$/);
});

test('the backup comparison lines its columns up across files and opens objects as JSON', async ({
  page,
}) => {
  await signIn(page, '/tenant-backup');
  await chooseTenant(page, 'ABC');
  await expect(rows(page)).toHaveCount(10);
  const pager = page.getByText(/^Page 1 of \d+$/);
  const pages = Number((await pager.textContent())?.split(' of ')[1]);
  for (let i = 1; i < pages; i++) await page.getByRole('button', { name: 'Next' }).click();
  await rows(page).last().getByRole('button', { name: 'Compare' }).click();
  const comparison = page.getByRole('dialog', { name: 'Configuration Comparison' });
  await expect(comparison.getByRole('img', { name: 'No match' }).first()).toBeVisible();
  // One table for every file: its columns line up from one file to the next (issue 19).
  const differences = comparison.getByRole('table', { name: 'Differences' });
  await expect(comparison.getByRole('table')).toHaveCount(1);
  const files = differences.getByRole('rowgroup').filter({ has: page.getByRole('cell') });
  expect(await files.count()).toBeGreaterThan(1);
  const currentHeader = await differences
    .getByRole('columnheader', { name: 'Current Value' })
    .boundingBox();
  for (const file of [files.first(), files.last()]) {
    const cell = await file.getByRole('row').last().getByRole('cell').nth(2).boundingBox();
    expect(Math.abs((cell?.x ?? 0) - (currentHeader?.x ?? -99))).toBeLessThan(1);
  }
  // An object value opens to its pretty-printed JSON from the keyboard.
  const objectValue = comparison.locator('details').first();
  await objectValue.locator('summary').focus();
  await page.keyboard.press('Enter');
  await expect(objectValue).toHaveAttribute('open', '');
  await expect(objectValue.locator('code > span').nth(1)).toBeVisible();
  await expect(objectValue.locator('code > span').first()).toHaveText(/^[[{]$/);
  // the focused summary stays clear of the sticky column header
  await objectValue.locator('summary').evaluate((summary) => summary.scrollIntoView());
  const header = await differences.getByRole('columnheader', { name: 'Setting' }).boundingBox();
  const summary = await objectValue.locator('summary').boundingBox();
  expect(summary?.y ?? 0).toBeGreaterThanOrEqual((header?.y ?? 0) + (header?.height ?? 0) - 1);
  await expectAccessible(page, 'tenant-backups 06c-comparison-object-open');
  for (const [width, height] of [
    [1400, 900],
    [1024, 768],
  ] as const) {
    await page.setViewportSize({ width, height });
    await objectValue.locator('summary').evaluate((summary) => summary.scrollIntoView());
    await page.screenshot({ path: `${SHOTS}/06c-comparison-${width}x${height}.png` });
  }
});

test('the backup history fits a 1024 px window: tags break at their slashes, actions two by two', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1024, height: 768 });
  await signIn(page, '/tenant-backup');
  await chooseTenant(page, 'ABC');
  const table = page.getByRole('table', { name: 'Backup history' });
  await expect(rows(page)).toHaveCount(10);
  const card = table.locator('xpath=ancestor::*[contains(@class, "fui-Card")][1]');
  const [tableBox, cardBox] = [await table.boundingBox(), await card.boundingBox()];
  expect((tableBox?.x ?? 0) + (tableBox?.width ?? 0)).toBeLessThanOrEqual(
    (cardBox?.x ?? 0) + (cardBox?.width ?? 0),
  );
  // a scheduled tag is at most two lines: 'backup/ABC/' and 'scheduled_yyyymmdd_hhmmss'
  const tag = rows(page).first().getByRole('cell').nth(1).locator('span').first();
  const lineHeight = parseFloat(await tag.evaluate((el) => getComputedStyle(el).lineHeight));
  expect((await tag.boundingBox())?.height ?? 99).toBeLessThanOrEqual(2 * lineHeight + 1);
  await page.screenshot({ path: `${SHOTS}/07-history-1024x768.png` });
  await expectAccessible(page, 'tenant-backups 07-history-1024x768');
});

test('cancelling the restore confirmation leaves the comparison usable by role, focus back on its opener', async ({
  page,
}) => {
  // axe reads the whole comparison table: a budget for a busy machine, not a speed assertion
  test.setTimeout(240_000);
  await signIn(page, '/tenant-backup');
  await chooseTenant(page, 'ABC');
  await rows(page).first().getByRole('button', { name: 'Compare' }).click();
  const comparison = page.getByRole('dialog', { name: 'Configuration Comparison' });
  await expect(comparison.getByRole('table', { name: 'Differences' })).toBeVisible();
  const restore = comparison.getByRole('button', { name: 'Restore This Backup' });
  await restore.click();
  const prompt = page.getByRole('alertdialog', { name: 'Restore backup' });
  await expect(prompt).toBeVisible();
  await prompt.getByRole('button', { name: 'Cancel' }).click();
  await expect(prompt).toHaveCount(0);
  // by role: a dialog left aria-hidden would not be found at all
  await expect(comparison).toBeVisible();
  await expect(restore).toBeFocused();
  await expectAccessible(page, 'tenant-backups comparison after a cancelled restore');
  await comparison.getByRole('button', { name: 'Close' }).click();
  await expect(comparison).toHaveCount(0);
  await expect(rows(page).first().getByRole('button', { name: 'Compare' })).toBeFocused();
});
