// Issue 28, "Done when" (ADR 063-066, 071): on `npm start`'s stack a setting changed in a client's
// tenant is found by the next quick check, shown on the Fleet with who and when, and sent once by
// email and once to Teams; a check with no further change sends nothing; acknowledging stops the
// escalation; reverting from the drift page resolves the drift and says so once. FAB is used: no
// journey reads its tenant's drift, and no journey after this one its backups.
import { expect, test, type Page } from '@playwright/test';

import { expectAccessible } from '../fixtures/a11y';
import { signIn } from '../fixtures/auth';
import { DEVOPS_URL, E2E_PORT, TENANTS_URL, tokenFor } from '../fixtures/emulators';
import { screenshotsFolder } from '../fixtures/paths';

const SHOTS = screenshotsFolder('drift-alert-revert');
const CLIENT = 'FAB';
const CHANGED = 'CA007-Global-IdentityProtection-AzureManagement-AnyPlatform-MFA';
const TENANT_EMULATOR = `http://127.0.0.1:${E2E_PORT + 104}/_emulator`;
/** the sample rule's email channel (scripts/embedded.ts) */
const SERVICE_DESK = 'servicedesk@aegis-msp.example';
/** longer than a notification pass (AEGIS_NOTIFICATION_PASS_MS, 15 s by default) */
const PASS_WAIT_MS = 20_000;

const shot = (page: Page, name: string) =>
  page.screenshot({ path: `${SHOTS}/${name}.png`, animations: 'disabled' });

interface Sent {
  emails: string[];
  cards: string[];
}

/** What the sample routing has sent about the client's drift: email subjects, Teams card texts. */
async function sentAboutDrift(): Promise<Sent> {
  const about = `${CLIENT} · Drift`;
  const mail = (await (await fetch(`${TENANT_EMULATOR}/mail`)).json()) as {
    value: { to: unknown; subject: string }[];
  };
  const hooks = (await (await fetch(`${TENANT_EMULATOR}/webhooks`)).json()) as {
    value: { url: string; body: unknown }[];
  };
  return {
    emails: mail.value
      .filter((m) => JSON.stringify(m.to).includes(SERVICE_DESK) && m.subject.includes(about))
      .map((m) => m.subject),
    cards: hooks.value
      .filter((h) => h.url.includes('teams-operations'))
      .map((h) => JSON.stringify(h.body))
      .filter((body) => body.includes(about)),
  };
}

/** Waits until nothing more is sent about the client's drift for a whole notification pass. */
async function settled(): Promise<Sent> {
  let before = await sentAboutDrift();
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, PASS_WAIT_MS));
    const after = await sentAboutDrift();
    if (
      after.emails.length === before.emails.length &&
      after.cards.length === before.cards.length
    ) {
      return after;
    }
    before = after;
  }
}

async function advanceClock(minutes: number): Promise<void> {
  const advanced = await fetch(`${DEVOPS_URL}/_emulator/clock/advance`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ minutes }),
  });
  expect(advanced.status).toBe(200);
  const { runs } = (await advanced.json()) as { runs: { cron: string }[] };
  // the drift check pipeline's 5-minute schedule ran: every client that is due is checked
  expect(runs.map((r) => r.cron)).toContain('*/5 * * * *');
}

/** The client's last stored check, through the API the drift page reads. */
async function lastCheck(): Promise<{ checkedAt: string; status: string } | null> {
  const response = await fetch(`http://localhost:${E2E_PORT}/api/drift/${CLIENT}`, {
    headers: { authorization: `Bearer ${await tokenFor()}` },
  });
  expect(response.status).toBe(200);
  return ((await response.json()) as { check: { checkedAt: string; status: string } | null }).check;
}

test('drift alert journey: a change is shown and sent once, acknowledged, reverted, resolved once', async ({
  page,
}) => {
  test.setTimeout(420_000);
  // the sample drift journey checked every client; what it raised has been sent
  await expect.poll(lastCheck, { timeout: 60_000 }).not.toBeNull();
  const before = await settled();

  // someone changes a setting in the tenant, outside Aegis
  const changed = await fetch(`${TENANTS_URL}/${CLIENT}/drift`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      workload: 'ConditionalAccess/Policy',
      object: CHANGED,
      set: { state: 'disabled' },
    }),
  });
  expect(changed.status).toBe(200);
  const checkedBefore = (await lastCheck())?.checkedAt;
  // one quick-check interval later (10 minutes at the defaults) the schedule has checked it
  await advanceClock(11);

  await page.setViewportSize({ width: 1400, height: 900 });
  await signIn(page, `/fleet/${CLIENT}/drift`);
  const table = page.getByRole('table', { name: 'Drifted objects' });
  const changedRow = table.getByRole('row').filter({ hasText: CHANGED });
  await expect(async () => {
    await page.getByRole('button', { name: 'Refresh' }).click();
    await expect(changedRow).toBeVisible({ timeout: 5_000 });
  }).toPass({ timeout: 120_000 });
  expect((await lastCheck())?.checkedAt).not.toBe(checkedBefore);
  // who changed it and when, from the tenant's audit log
  await expect(changedRow.getByText(/@/)).toBeVisible();
  await expect(
    changedRow.getByText(/\d+ \w+ \d{4} \d\d:\d\d · Update conditional access policy/),
  ).toBeVisible();
  await expect(changedRow.getByText('state: "enabled" → "disabled"')).toBeVisible();

  // the Fleet shows the drift with the latest change's actor and time
  await page.goto('/fleet');
  const grid = page.getByRole('grid', { name: 'Fleet' });
  const row = grid
    .getByRole('row')
    .filter({ has: page.getByRole('link', { name: CLIENT, exact: true }) });
  await expect(row.getByText(/^Drifted: \d+$/)).toBeVisible({ timeout: 90_000 });
  await expect(row.getByText(/^by .+@.+, \d+ \w+ \d{4} \d\d:\d\d$/)).toBeVisible();

  // exactly one email and one Teams card for the changed drift
  const afterChange = await settled();
  expect(afterChange.emails.length - before.emails.length).toBe(1);
  expect(afterChange.cards.length - before.cards.length).toBe(1);
  expect(afterChange.emails.at(-1)).toMatch(
    /^\[Aegis\] Changed: FAB · Drift detected: \d+ objects? differs? from main$/,
  );

  // a second check with no further change sends nothing
  const checkedOnce = (await lastCheck())?.checkedAt;
  await advanceClock(11);
  await expect
    .poll(async () => (await lastCheck())?.checkedAt, { timeout: 120_000 })
    .not.toBe(checkedOnce);
  const afterSecond = await settled();
  expect(afterSecond).toEqual(afterChange);

  // acknowledging it in the header's notification centre (no escalation after that)
  await page.goto(`/fleet/${CLIENT}/drift`);
  await page.getByRole('button', { name: /^Notifications, \d+ unread$/ }).click();
  const centre = page.getByRole('region', { name: 'Notifications' });
  const item = centre.getByRole('listitem').filter({ hasText: `${CLIENT} · Drift detected` });
  await item.getByRole('button', { name: 'Acknowledge' }).click();
  await expect(item.getByText(/Acknowledged by alex\.morgan@aegis-msp\.example/)).toBeVisible();
  await shot(page, '01-acknowledged');
  await page.keyboard.press('Escape');
  await expect(centre).toBeHidden();

  // revert: every drifted object the deploy can write, after the confirmation listing them
  await expect(table).toBeVisible();
  await shot(page, '02-drift-page');
  await expectAccessible(page, 'drift page with revert');
  await page.getByRole('button', { name: 'Revert all' }).click();
  const prompt = page.getByRole('alertdialog', { name: 'Revert drift' });
  await expect(prompt).toContainText(`in ${CLIENT}'s tenant as the approved configuration on main`);
  await expect(prompt).toContainText(
    `${CHANGED} (ConditionalAccess/Policy): set back to the approved values`,
  );
  await shot(page, '03-revert-confirmation');
  await expectAccessible(page, 'revert confirmation');
  await prompt.getByRole('button', { name: 'Revert' }).click();
  await expect(
    page.getByText(
      /^Reverting \d+ objects? of FAB to the approved configuration \(run \d+\)\.\.\.$/,
    ),
  ).toBeVisible();
  await shot(page, '04-reverting');
  await expect(
    page.getByText(/^Reverted \d+ objects? of FAB to the approved configuration/),
  ).toBeVisible({
    timeout: 120_000,
  });
  // then the page checks the drift itself and shows the result
  await expect(page.getByText(/^Drift check finished \(run \d+\)/)).toBeVisible({
    timeout: 120_000,
  });
  await expect(page.getByText('In sync', { exact: true })).toBeVisible();
  await expect(page.getByText(/^Back in sync since /)).toBeVisible();
  await shot(page, '05-in-sync');
  await expectAccessible(page, 'drift page in sync');
  await page.setViewportSize({ width: 1024, height: 768 });
  await shot(page, '06-in-sync-1024');

  // 'resolved' is said once, by email and in Teams (the message names the drift it closes)
  const isResolved = (text: string) => text.includes(`Resolved: ${CLIENT} · Drift`);
  const resolvedBefore = {
    emails: afterSecond.emails.filter(isResolved).length,
    cards: afterSecond.cards.filter(isResolved).length,
  };
  await expect
    .poll(async () => (await sentAboutDrift()).emails.filter(isResolved).length, {
      timeout: 120_000,
    })
    .toBe(resolvedBefore.emails + 1);
  const resolved = await settled();
  expect(resolved.emails.filter(isResolved)).toHaveLength(resolvedBefore.emails + 1);
  expect(resolved.cards.filter(isResolved)).toHaveLength(resolvedBefore.cards + 1);
  expect(resolved.emails.length - afterSecond.emails.length).toBe(1);
  expect(resolved.cards.length - afterSecond.cards.length).toBe(1);
});
