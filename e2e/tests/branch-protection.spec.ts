import { expect, test, type Page } from '@playwright/test';

import { expectAccessible } from '../fixtures/a11y';
import { SAMPLE_STAFF, signIn } from '../fixtures/auth';
import { DEVOPS_URL, devopsTokenFor, PROJECT, tokenFor } from '../fixtures/emulators';
import { screenshotsFolder } from '../fixtures/paths';

const SHOTS = screenshotsFolder('branch-protection');
const WARNING = 'Four eyes is not enforced in Azure DevOps';

/** The `oid` claim of a sample account: the identity Azure DevOps knows it by. */
async function oidOf(upn?: string): Promise<string> {
  const [, payload = ''] = (await tokenFor(upn)).split('.');
  return (JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { oid: string }).oid;
}

/**
 * Someone Azure DevOps lets edit policies removes main's branch policy (a Project Administrator
 * granting themselves 'Edit policies' first, as the emulator's stand-in for the Security API).
 */
async function removeBranchPolicy(): Promise<void> {
  const identityId = await oidOf();
  const grant = (allow: number) =>
    fetch(`${DEVOPS_URL}/_emulator/git-permissions`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ repository: 'M365Config', identityId, allow }),
    });
  expect((await grant(2048)).status).toBe(200);
  const { organization } = (await (await fetch(`${DEVOPS_URL}/_emulator/health`)).json()) as {
    organization: string;
  };
  const policies = `${DEVOPS_URL}/${organization}/${encodeURIComponent(PROJECT)}/_apis/policy/configurations`;
  const headers = { authorization: `Bearer ${await devopsTokenFor()}` };
  const listed = (await (await fetch(`${policies}?api-version=7.1`, { headers })).json()) as {
    value: { id: number }[];
  };
  expect(listed.value.length).toBeGreaterThan(0);
  for (const policy of listed.value) {
    const deleted = await fetch(`${policies}/${policy.id}?api-version=7.1`, {
      method: 'DELETE',
      headers,
    });
    expect(deleted.status, `delete policy ${policy.id}`).toBe(204);
  }
  expect((await grant(0)).status).toBe(200);
}

const shot = async (page: Page, name: string) => {
  for (const [width, height] of [
    [1400, 900],
    [1024, 768],
  ] as const) {
    await page.setViewportSize({ width, height });
    await page.screenshot({ path: `${SHOTS}/${name}-${width}.png`, animations: 'disabled' });
  }
};

// Whatever happens in the journey, main is protected again for the journeys after it.
test.afterEach(async ({ request }) => {
  const restored = await request.post('/api/branch-protection', {
    headers: { authorization: `Bearer ${await tokenFor()}` },
  });
  expect(restored.status()).toBe(200);
});

test('a missing branch policy is warned about on every screen; a Reader cannot act, an Administrator sets it up', async ({
  page,
  browser,
}) => {
  await signIn(page, '/fleet');
  await expect(page.getByRole('heading', { name: 'Fleet', exact: true })).toBeVisible();
  await expect(page.getByText(WARNING)).toBeHidden();

  await removeBranchPolicy();

  // a Reader is told, without the action
  const readerContext = await browser.newContext();
  const reader = await readerContext.newPage();
  await signIn(reader, '/fleet', SAMPLE_STAFF.nightShift.upn);
  await expect(reader.getByText(WARNING)).toBeVisible({ timeout: 30_000 });
  await expect(reader.getByRole('button', { name: 'Set up branch policy' })).toHaveCount(0);
  await shot(reader, '01-reader');
  await expectAccessible(reader, '01-reader');
  await readerContext.close();

  // the Administrator is told, on every screen
  await page.reload();
  await expect(page.getByText(WARNING)).toBeVisible({ timeout: 30_000 });
  await expect(
    page.getByText(/main of M365Config lacks the branch policy Aegis needs: /),
  ).toBeVisible();
  await shot(page, '02-administrator');
  await expectAccessible(page, '02-administrator');
  await page.goto('/tenant-backup');
  await expect(page.getByText(WARNING)).toBeVisible({ timeout: 30_000 });

  // keyboard: the Administrator reaches the action and sets the policy up
  const setUp = page.getByRole('button', { name: 'Set up branch policy' });
  await setUp.focus();
  await expect(setUp).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByText(WARNING)).toBeHidden({ timeout: 30_000 });
  await shot(page, '03-protected');

  // it stays set up: a fresh load finds main protected
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Tenant Backups' })).toBeVisible();
  await expect(page.getByText(WARNING)).toBeHidden();
});
