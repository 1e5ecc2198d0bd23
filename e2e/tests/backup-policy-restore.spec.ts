// Issue 30 §4: restore one policy of a backup, as a pull request holding exactly that file.
import { expect, test, type Page } from '@playwright/test';

import { expectAccessible } from '../fixtures/a11y';
import { signIn } from '../fixtures/auth';
import { devopsGet } from '../fixtures/emulators';
import { notice } from '../fixtures/notices';
import { screenshotsFolder } from '../fixtures/paths';

const SHOTS = screenshotsFolder('backup-policy-restore');
/** ABC's tenant has this policy drifted from main (the sample's drift), so its backup differs. */
const DRIFTED =
  'ConditionalAccess/Policy/CA004-Global-IdentityProtection-AnyApp-AnyPlatform-MFA-RiskySignIn.json';

function rows(page: Page) {
  return page
    .getByRole('table', { name: 'Backup history' })
    .getByRole('row')
    .filter({ has: page.getByRole('cell') });
}

test('restore one policy of a backup: the pull request holds exactly that file', async ({
  page,
}) => {
  test.setTimeout(240_000);
  await page.setViewportSize({ width: 1400, height: 900 });
  await signIn(page, '/tenant-backup');
  await page.getByLabel('Tenant').selectOption('ABC');
  await expect(rows(page).first()).toBeVisible();

  // a backup of the live tenant, which holds the drift
  await page.getByRole('button', { name: 'Manual Backup' }).click();
  await expect(page.getByRole('button', { name: 'Manual Backup' })).toBeEnabled({
    timeout: 60_000,
  });
  const newest = rows(page).first();
  await expect(newest.getByRole('cell').nth(2)).toHaveText('Manual');
  const tag = (await newest.getByRole('cell').nth(1).textContent()) ?? '';

  await newest.getByRole('button', { name: 'View' }).click();
  const details = page.getByRole('dialog', { name: 'Backup Details' });
  const policies = details.getByRole('group', { name: /^Policies/ });
  await expect(policies.getByRole('checkbox').first()).toBeVisible();
  const restoreChosen = details.getByRole('button', { name: 'Restore Selected Policies (0)' });
  await expect(restoreChosen).toBeDisabled();
  await details.getByRole('textbox', { name: 'Filter policies' }).fill('CA004');
  await policies.getByRole('checkbox', { name: DRIFTED }).check();
  await expect(
    details.getByRole('group', { name: /^Policies \(1 of \d+ selected\)$/ }),
  ).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/01-chosen-1400x900.png` });
  await expectAccessible(page, 'backup-policy-restore 01-chosen');
  await page.setViewportSize({ width: 1024, height: 768 });
  await page.screenshot({ path: `${SHOTS}/02-chosen-1024x768.png` });
  await page.setViewportSize({ width: 1400, height: 900 });

  await details.getByRole('button', { name: 'Restore Selected Policies (1)' }).click();
  const prompt = page.getByRole('alertdialog', { name: 'Restore policies' });
  await expect(prompt).toContainText(
    `Are you sure you want to restore 1 policy from backup ${tag}? This will create a pull request for review.`,
  );
  await page.screenshot({ path: `${SHOTS}/03-confirm.png` });
  await prompt.getByRole('button', { name: 'Restore' }).click();
  const created = notice(page, /^Pull request #(\d+) has been created for review\.$/);
  await expect(created).toBeVisible();
  const id = Number(/#(\d+)/.exec((await created.textContent()) ?? '')?.[1]);

  const pr = (
    await devopsGet<{ value: { pullRequestId: number; sourceRefName: string; title: string }[] }>(
      '/pullrequests?searchCriteria.status=all&api-version=7.1',
    )
  ).value.find((p) => p.pullRequestId === id);
  expect(pr?.title).toBe(`Restore 1 policy of ABC from backup ${tag}`);
  const branch = (pr?.sourceRefName ?? '').replace(/^refs\/heads\//, '');
  const diff = await devopsGet<{
    changes: { item: { path: string; isFolder?: boolean; gitObjectType?: string } }[];
  }>(
    `/diffs/commits?baseVersion=main&baseVersionType=branch&targetVersion=${encodeURIComponent(branch)}&targetVersionType=branch&api-version=7.1`,
  );
  expect(
    diff.changes
      .filter((c) => !c.item.isFolder && c.item.gitObjectType !== 'tree')
      .map((c) => c.item.path),
  ).toEqual([`/Clients/ABC/M365Config/Resources/${DRIFTED}`]);
});
