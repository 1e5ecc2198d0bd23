import { expect, test, type Page } from '@playwright/test';

import { expectAccessible } from '../fixtures/a11y';
import { signIn } from '../fixtures/auth';
import { DEVOPS_URL, E2E_PORT } from '../fixtures/emulators';
import { screenshotsFolder } from '../fixtures/paths';

const SHOTS = screenshotsFolder('notifications');
/** The tenant emulator's mailbox of what Graph sendMail received (issue 28 §6). */
const MAILBOX_URL = `http://127.0.0.1:${E2E_PORT + 104}/_emulator/mail`;
const DESK = 'e2e-desk@aegis-msp.example';
/** The sample rules' escalation channel (scripts/embedded.ts). */
const ON_CALL = 'oncall@aegis-msp.example';

interface Mail {
  to: string[];
  subject: string;
}

async function mailTo(address: string): Promise<Mail[]> {
  const mail = (await (await fetch(MAILBOX_URL)).json()) as { value: Mail[] };
  return mail.value.filter((message) => JSON.stringify(message.to).includes(address));
}

async function shot(page: Page, name: string): Promise<void> {
  for (const [width, height] of [
    [1400, 900],
    [1024, 768],
  ] as const) {
    await page.setViewportSize({ width, height });
    await page.screenshot({ path: `${SHOTS}/${name}-${width}.png`, fullPage: true });
  }
  await expectAccessible(page, name);
}

test('an Administrator adds a channel and a rule, and a test reaches the mailbox', async ({
  page,
}) => {
  await signIn(page, '/notification-rules');
  await expect(page.getByRole('heading', { name: 'Notification Rules', level: 1 })).toBeVisible();
  await expect(page.getByRole('table', { name: 'Channels' })).toBeVisible();
  await shot(page, 'rules-sample');

  await page.getByRole('button', { name: 'Add channel' }).click();
  const channelDialog = page.getByRole('dialog', { name: 'Add a channel' });
  await channelDialog.getByLabel('Name').fill('E2E desk');
  await channelDialog.getByLabel('Recipients').fill(DESK);
  await shot(page, 'channel-dialog');
  await channelDialog.getByRole('button', { name: 'Add channel' }).click();
  const row = page.getByRole('table', { name: 'Channels' }).getByRole('row', { name: /E2E desk/ });
  await expect(row).toBeVisible();

  await page.getByRole('button', { name: 'Add rule' }).click();
  const ruleDialog = page.getByRole('dialog', { name: 'Add a rule' });
  await ruleDialog.getByLabel('Name').fill('E2E backups of ABC');
  await ruleDialog.getByLabel('Client').selectOption('ABC');
  await ruleDialog.getByRole('group', { name: 'Events' }).getByLabel('Backup missed').check();
  // the kinds that wait N hours or days ask for N (ADR 070)
  await ruleDialog
    .getByRole('group', { name: 'Events' })
    .getByLabel('Approval waiting too long')
    .check();
  await expect(ruleDialog.getByLabel('Say an approval waiting this many hours')).toHaveValue('24');
  await ruleDialog.getByRole('group', { name: 'Send to' }).getByLabel('E2E desk').check();
  await shot(page, 'rule-dialog');
  await ruleDialog.getByRole('button', { name: 'Add rule' }).click();
  await expect(
    page.getByRole('table', { name: 'Rules' }).getByRole('row', { name: /E2E backups of ABC/ }),
  ).toBeVisible();

  await row.getByRole('button', { name: 'Send test' }).click();
  await expect(row.getByText('Test delivered')).toBeVisible();
  await shot(page, 'send-test');
  const mail = (await (await fetch(MAILBOX_URL)).json()) as {
    value: { to: string[]; subject: string }[];
  };
  expect(mail.value.filter((message) => JSON.stringify(message.to).includes(DESK))).toHaveLength(1);

  // the header's notification centre opens with the keyboard and closes on Escape
  const bell = page.getByRole('button', { name: /^Notifications, \d+ unread$/ });
  await bell.focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('region', { name: 'Notifications' })).toBeVisible();
  await shot(page, 'notification-centre');
  await page.keyboard.press('Escape');
  await expect(page.getByRole('region', { name: 'Notifications' })).toBeHidden();
  await expect(bell).toBeFocused();
});

/**
 * Issue 28 §4-5, ADR 070: the sample rule sends missed backups to the service desk and escalates
 * to On call after an hour. The stack's clock is the DevOps emulator's: moving it an hour on
 * escalates CON's, which nobody acknowledged, and not FAB's, acknowledged in the header.
 */
test('acknowledging in the header centre stops the escalation; the rest escalates', async ({
  page,
}) => {
  test.setTimeout(180_000);
  await signIn(page, '/notification-rules');
  const bell = page.getByRole('button', { name: /^Notifications, \d+ unread$/ });
  const centre = page.getByRole('region', { name: 'Notifications' });
  const item = (text: string) => centre.getByRole('listitem').filter({ hasText: text });
  const fab = item('FAB · Backup missed: health Critical');
  // the producers' first pass after start raised them (FAB's newest backup is 6 days old, CON's 1)
  await expect(async () => {
    await page.reload();
    await bell.click();
    await expect(fab).toBeVisible({ timeout: 3_000 });
  }).toPass({ timeout: 90_000 });
  await expect(item('CON · Backup missed: health Warning')).toBeVisible();
  await fab.getByRole('button', { name: 'Acknowledge' }).focus();
  await page.keyboard.press('Enter');
  await expect(fab.getByText(/^Acknowledged by /)).toBeVisible();
  await shot(page, 'acknowledged');

  const advanced = await fetch(`${DEVOPS_URL}/_emulator/clock/advance`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ minutes: 65 }),
  });
  expect(advanced.status).toBe(200);
  // the delivery pass (every 15 s) finds CON's escalation due
  await expect
    .poll(async () => (await mailTo(ON_CALL)).map((m) => m.subject), { timeout: 90_000 })
    .toContainEqual(expect.stringContaining('CON · Backup missed: health Warning'));
  expect((await mailTo(ON_CALL)).filter((m) => m.subject.includes('FAB'))).toEqual([]);
});
