import { expect, test, type APIRequestContext, type Page } from '@playwright/test';

import { expectAccessible } from '../fixtures/a11y';
import { signIn } from '../fixtures/auth';
import { tokenFor } from '../fixtures/emulators';
import { screenshotsFolder } from '../fixtures/paths';

const SHOTS = screenshotsFolder('pending-acceptance');
const CLIENT = 'CON';
const ALEX = 'alex.morgan@aegis-msp.example';
const PRIYA = 'priya.shah@aegis-msp.example';
const REASON = 'The client replaces this policy with their own next month; agreed with their CISO';

interface Group {
  path: string;
  policyName: string;
  category: string;
  highestSeverity: string;
  deviations: { property: string }[];
}

/** A policy of the client that deviates critically, from the same report the screen shows. */
async function criticalGroup(request: APIRequestContext): Promise<Group> {
  const response = await request.get(`/api/compliance/${CLIENT}`, {
    headers: { authorization: `Bearer ${await tokenFor(ALEX)}` },
  });
  expect(response.status()).toBe(200);
  const report = (await response.json()) as { compliance: { deviations: Group[] } };
  const group = report.compliance.deviations.find((g) => g.highestSeverity === 'critical');
  if (!group) throw new Error(`${CLIENT} has no critical deviation`);
  return group;
}

const shot = async (page: Page, name: string) => {
  for (const [width, height] of [
    [1400, 900],
    [1024, 768],
  ] as const) {
    await page.setViewportSize({ width, height });
    await page.screenshot({
      path: `${SHOTS}/${name}-${width}.png`,
      fullPage: true,
      animations: 'disabled',
    });
  }
};

test('a critical acceptance waits for a second Approver, who approves it', async ({
  page,
  browser,
  request,
}) => {
  test.setTimeout(180_000);
  const group = await criticalGroup(request);

  // Alex (Administrator) asks: nothing is accepted, the request waits
  await signIn(page, `/capture-management/${CLIENT}?view=baseline`);
  const asked = await request.post(`/api/compliance/${CLIENT}/accepted-deviations`, {
    headers: { authorization: `Bearer ${await tokenFor(ALEX)}` },
    data: {
      path: group.path,
      policyName: group.policyName,
      category: group.category,
      properties: group.deviations.map((d) => d.property),
      reason: REASON,
    },
  });
  expect(asked.status()).toBe(202);
  await page.reload();
  const waiting = page.getByText('Critical acceptances waiting for a second Approver (1)');
  await expect(waiting).toBeVisible({ timeout: 60_000 });
  await expect(
    page.getByText(
      'You asked for this acceptance, so another Approver must approve it (four-eyes rule).',
    ),
  ).toBeVisible();
  await expect(
    page.getByRole('button', { name: `Approve the acceptance of ${group.policyName}` }),
  ).toHaveCount(0);
  await shot(page, '01-asked');
  await expectAccessible(page, '01-asked');

  // Priya (Approver) sees who asked and why, and approves it with the keyboard
  const priyaContext = await browser.newContext();
  const priya = await priyaContext.newPage();
  await signIn(priya, `/capture-management/${CLIENT}?view=baseline`, 'Priya Shah');
  await expect(
    priya.getByText('Critical acceptances waiting for a second Approver (1)'),
  ).toBeVisible({ timeout: 60_000 });
  await expect(priya.getByText(new RegExp(`Asked by ${ALEX} on .*: ${REASON}`))).toBeVisible();
  await shot(priya, '02-second-approver');
  await expectAccessible(priya, '02-second-approver');
  const approve = priya.getByRole('button', {
    name: `Approve the acceptance of ${group.policyName}`,
  });
  await approve.focus();
  await priya.keyboard.press('Enter');
  await expect(priya.getByText(/Critical acceptances waiting/)).toBeHidden({ timeout: 60_000 });
  await expect(priya.getByText(/^Accepted Deviations \(\d+ in \d+ polic(y|ies)\)$/)).toBeVisible();
  await shot(priya, '03-approved');
  await expectAccessible(priya, '03-approved');

  // the acceptance names both people
  const file = await request.get(`/api/compliance/${CLIENT}/accepted-deviations`, {
    headers: { authorization: `Bearer ${await tokenFor(PRIYA)}` },
  });
  const accepted = (await file.json()) as {
    acceptedDeviations: { path: string; acceptedBy: string; approvedBy?: string }[];
    pendingAcceptances?: unknown[];
  };
  expect(accepted.acceptedDeviations.find((a) => a.path === group.path)).toMatchObject({
    acceptedBy: ALEX,
    approvedBy: PRIYA,
  });
  expect(accepted.pendingAcceptances ?? []).toEqual([]);
  await priyaContext.close();
});
