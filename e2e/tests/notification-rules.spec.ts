import { expect, test, type Page } from '@playwright/test';

import { expectAccessible } from '../fixtures/a11y';
import { signIn } from '../fixtures/auth';
import { E2E_PORT } from '../fixtures/emulators';
import { screenshotsFolder } from '../fixtures/paths';

const SHOTS = screenshotsFolder('notifications');
/** The tenant emulator's mailbox of what Graph sendMail received (issue 28 §6). */
const MAILBOX_URL = `http://127.0.0.1:${E2E_PORT + 104}/_emulator/mail`;
const DESK = 'e2e-desk@aegis-msp.example';

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
