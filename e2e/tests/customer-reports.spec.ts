import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';

import { expect, test, type Page } from '@playwright/test';

import { expectAccessible } from '../fixtures/a11y';
import { signIn } from '../fixtures/auth';
import { E2E_PORT, tokenFor } from '../fixtures/emulators';
import { screenshotsFolder } from '../fixtures/paths';

const SHOTS = screenshotsFolder('customer-reports');
const MAIL_URL = `http://127.0.0.1:${E2E_PORT + 104}/_emulator/mail`;

const shot = (page: Page, name: string) =>
  page.screenshot({ path: `${SHOTS}/${name}.png`, animations: 'disabled' });

interface ReceivedMail {
  subject: string;
  to: string[];
  attachments: { name: string; contentType: string; contentBytes: string }[];
}

async function api<T>(page: Page, url: string): Promise<T> {
  const response = await page.request.get(url, {
    headers: { authorization: `Bearer ${await tokenFor()}` },
  });
  expect(response.ok()).toBe(true);
  return (await response.json()) as T;
}

test("customer reports: FAB's history from the start, send now delivers the PDF with the screens' figures", async ({
  page,
}) => {
  test.setTimeout(240_000);
  await page.setViewportSize({ width: 1400, height: 900 });
  // npm start sends the samples' due reports once it listens (ADR 067): the journey starts once
  // they are in the mailbox, so the history it checks is complete
  await expect
    .poll(
      async () =>
        ((await (await fetch(MAIL_URL)).json()) as { value: ReceivedMail[] }).value.filter((m) =>
          m.attachments.some((a) => a.contentType === 'application/pdf'),
        ).length,
      { timeout: 120_000 },
    )
    .toBeGreaterThanOrEqual(3);
  await signIn(page, '/customer-reports?client=FAB');
  await expect(page.getByRole('heading', { name: 'Customer Reports', exact: true })).toBeVisible();
  // npm start scheduled FAB and sent its due report: the history is not empty
  const history = page.getByRole('table', { name: 'Reports sent' });
  await expect(history.getByText('On schedule').first()).toBeVisible({ timeout: 120_000 });
  await expect(page.getByRole('textbox', { name: /Customer name/ })).toHaveValue('Fabrikam Inc');
  await shot(page, '01-customer-reports-1400');
  await expectAccessible(page, 'customer reports');

  // the figures Baseline Compliance and the standard comparison show for FAB now
  const compliance = (
    await api<{ compliance: { compliancePercentage: number } }>(page, '/api/compliance/FAB')
  ).compliance.compliancePercentage;
  const fleet = await api<{ rows: { client: string; standardPercentage: number | null }[] }>(
    page,
    '/api/fleet',
  );
  const standard = fleet.rows.find((r) => r.client === 'FAB')?.standardPercentage;
  // only reports count: the stack's notifications (runs, backups, drift) reach the same mailbox
  const reportMail = async () =>
    ((await (await fetch(MAIL_URL)).json()) as { value: ReceivedMail[] }).value.filter((m) =>
      m.attachments.some((a) => a.contentType === 'application/pdf'),
    );
  const before = (await reportMail()).length;

  await page.getByRole('button', { name: 'Send now' }).click();
  const confirm = page.getByRole('alertdialog');
  await expect(confirm).toContainText('it-lead@fab.example');
  await confirm.getByRole('button', { name: 'Send' }).click();
  await expect(page.getByText(/report was sent\.$/).first()).toBeVisible({ timeout: 90_000 });
  await expect(history.getByText(/^Sent now by /).first()).toBeVisible();

  const mail = await reportMail();
  expect(mail.length).toBe(before + 1);
  const sent = mail.at(-1)!;
  expect(sent.to).toEqual(['it-lead@fab.example']);
  const attachment = sent.attachments[0]!;
  expect(attachment.contentType).toBe('application/pdf');
  const file = path.join(SHOTS, attachment.name);
  writeFileSync(file, Buffer.from(attachment.contentBytes, 'base64'));
  const text = execFileSync('pdftotext', [file, '-'], { encoding: 'utf8' }).replace(/\s+/g, ' ');
  expect(text).toContain('Fabrikam Inc');
  const period = /Microsoft 365 security and configuration, (\w+ \d{4})/.exec(text)?.[1];
  expect(sent.subject).toContain(period);
  expect(text).toContain(`Compliance with our company baseline is ${compliance}%`);
  expect(text).toContain(`Compliance with the standard catalogue is ${standard}%`);

  // the sent PDF from Blob storage: the same bytes
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    history
      .getByRole('button', { name: /^Download the / })
      .first()
      .click(),
  ]);
  const downloaded = path.join(SHOTS, 'downloaded.pdf');
  await download.saveAs(downloaded);
  const sentBytes = Buffer.from(attachment.contentBytes, 'base64');
  expect(execFileSync('cmp', [downloaded, file]).length).toBe(0);
  expect(sentBytes.length).toBeGreaterThan(10_000);

  await page.setViewportSize({ width: 1024, height: 768 });
  await shot(page, '02-customer-reports-1024');
  await expectAccessible(page, 'customer reports at 1024');
});

test('customer report branding: an Administrator sets the cover, previewed as typed', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1400, height: 900 });
  await signIn(page, '/customer-reports');
  await page.getByRole('link', { name: 'Branding of the reports' }).click();
  await expect(
    page.getByRole('heading', { name: 'Customer Report Branding', exact: true }),
  ).toBeVisible();
  const cover = page.getByRole('figure', { name: 'Cover preview' });
  await expect(cover).toContainText('Prepared by');

  // keyboard only: from the company name to the colour, typed, then saved
  const name = page.getByRole('textbox', { name: /Company name/ });
  await name.fill('Aegis Managed Services');
  await name.press('Tab');
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.type('#7A1F5C');
  await expect(page.getByRole('textbox', { name: 'Colour' })).toHaveValue('#7A1F5C');
  await page
    .getByRole('textbox', { name: /Support message/ })
    .fill('Our service desk answers 8:00-18:00, Monday to Friday.');
  await expect(cover).toContainText('Prepared by Aegis Managed Services');
  await expect(cover).toContainText('Our service desk answers 8:00-18:00, Monday to Friday.');

  // a colour the server refuses is said under the field
  await page.getByRole('textbox', { name: 'Colour' }).fill('purple');
  await page.getByRole('button', { name: 'Save branding' }).click();
  await expect(page.getByText('must be a colour as #RRGGBB')).toBeVisible();
  await page.getByRole('textbox', { name: 'Colour' }).fill('#7A1F5C');
  await page.getByRole('button', { name: 'Save branding' }).focus();
  await page.keyboard.press('Enter');
  await expect(page.getByText('The branding was saved.').first()).toBeVisible();
  await shot(page, '03-branding-1400');
  await expectAccessible(page, 'customer report branding');

  await page.setViewportSize({ width: 1024, height: 768 });
  await shot(page, '04-branding-1024');
  await expectAccessible(page, 'customer report branding at 1024');
});
