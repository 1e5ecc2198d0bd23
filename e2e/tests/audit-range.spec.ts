import { expect, test, type Page } from '@playwright/test';

import { expectAccessible } from '../fixtures/a11y';
import { SAMPLE_STAFF, signIn } from '../fixtures/auth';
import { tokenFor } from '../fixtures/emulators';
import { screenshotsFolder } from '../fixtures/paths';

const SHOTS = screenshotsFolder('audit');
const READER = SAMPLE_STAFF.nightShift.upn;

test.use({ locale: 'en-US' });

async function shot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true, animations: 'disabled' });
  await expectAccessible(page, name);
}

const utcDay = (at: Date) => at.toISOString().slice(0, 10);

/** When the Reader's newest audited attempt, made between `from` and `to`, was recorded. */
async function latestAttemptOfReader(page: Page, from: Date, to: Date): Promise<Date> {
  const response = await page.request.get('/api/audit', {
    headers: { authorization: `Bearer ${await tokenFor()}` },
    params: { from: utcDay(from), to: utcDay(to), actor: READER },
  });
  expect(response.status()).toBe(200);
  const { events } = (await response.json()) as { events: { at: string }[] };
  expect(events.length).toBeGreaterThan(0);
  return new Date(events[0]!.at);
}

test('the Audit Trail filters on a range of days kept in the address', async ({ page }) => {
  // an attempt this journey makes, so the range holds one event whatever ran before: a Reader
  // asking for a manual backup is refused (403), and refused attempts are audited (ADR 037).
  // Nothing changes: no other journey reads the Reader's refused attempts.
  const before = new Date();
  const refused = await page.request.post('/api/backups/ABC/runs', {
    headers: { authorization: `Bearer ${await tokenFor(READER)}` },
    data: {},
  });
  expect(refused.status()).toBe(403);
  // 'today' is the day the refusal was recorded, and the browser's clock is held there: the
  // journey passes the same way when it runs across midnight UTC
  const recordedAt = await latestAttemptOfReader(page, before, new Date());
  await page.clock.setFixedTime(recordedAt);
  const today = utcDay(recordedAt);

  await signIn(page, '/audit');
  const filters = page.getByRole('form', { name: 'Audit filters' });
  // without a range in the address: the current month up to today (UTC)
  await expect(filters.getByLabel('From')).toHaveValue(`${today.slice(0, 7)}-01`);
  await expect(filters.getByLabel('To')).toHaveValue(today);

  // keyboard: a date field takes the day typed segment by segment (month, day, year in en-US)
  await filters.getByLabel('From').fill(today);
  const [year, month, day] = today.split('-');
  await filters.getByLabel('To').fill('');
  await filters.getByLabel('To').focus();
  await page.keyboard.type(`${month}${day}${year}`);
  await expect(filters.getByLabel('To')).toHaveValue(today);
  await filters.getByLabel('Who (UPN)').fill(READER);
  await filters.getByLabel('Who (UPN)').press('Enter');
  await expect(page).toHaveURL(
    new RegExp(`/audit\\?from=${today}&to=${today}&actor=${encodeURIComponent(READER)}$`),
  );
  const row = page
    .getByRole('grid')
    .getByRole('row', { name: `Started a backup by ${READER}` })
    .first();
  await expect(row.getByText('Failed (403)')).toBeVisible();
  await shot(page, '01-audit-range-today');

  // To before From: said at the field, nothing asked
  await filters.getByLabel('To').fill('2020-01-01');
  await expect(filters.getByText('To must not be before From.')).toBeVisible();
  await filters.getByRole('button', { name: 'Apply filters' }).click();
  await expect(page).toHaveURL(new RegExp(`to=${today}`));
  await shot(page, '02-audit-range-to-before-from');

  // a shared address opens on its range: a January long ago holds nothing
  const shared = `/audit?from=2025-01-01&to=2025-01-31&actor=${encodeURIComponent(READER)}`;
  await page.goto(shared);
  await expect(filters.getByLabel('From')).toHaveValue('2025-01-01');
  await expect(filters.getByLabel('To')).toHaveValue('2025-01-31');
  await expect(page.getByText('No audit events in this range')).toBeVisible();
  await expect(
    page.getByText('Nothing recorded from 1 Jan 2025 to 31 Jan 2025 (UTC) matches these filters.'),
  ).toBeVisible();
  await shot(page, '03-audit-range-empty');
});
