import { execFileSync } from 'node:child_process';
import path from 'node:path';

import { expect, test, type Page } from '@playwright/test';

import { expectAccessible } from '../fixtures/a11y';
import { SAMPLE_STAFF, signIn } from '../fixtures/auth';
import { mainFileText } from '../fixtures/emulators';
import { screenshotsFolder } from '../fixtures/paths';

const SHOTS = screenshotsFolder('baseline-compliance');
const RENAMED_CLIENT_POLICY = 'CA000 - Require MFA for All Users';
const REASON = 'Group creation stays open for the client until their Teams rollout ends';
/** an expiry within the year an acceptance may run (ADR 056) */
const UNTIL = new Date(Date.now() + 90 * 86_400_000).toISOString().slice(0, 10);

/** A JSON file on main, read straight from the DevOps emulator's REST API. */
async function mainFile<T>(file: string): Promise<T> {
  return JSON.parse(await mainFileText(file)) as T;
}

/** The Critical summary card's figure. */
async function criticalCount(page: Page): Promise<number> {
  const text = await page.getByRole('group', { name: 'Critical', exact: true }).textContent();
  return Number(/\d+/.exec(text ?? '')?.[0] ?? NaN);
}

const shot = (page: Page, name: string) =>
  page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true, animations: 'disabled' });

test('baseline compliance: match a renamed policy, accept two deviations, export Critical & High with a banner', async ({
  page,
}) => {
  test.setTimeout(180_000);
  await signIn(page, '/capture-management/FAB?view=baseline');
  await expect(
    page.getByText('Current state of FAB vs company baseline (main branch)'),
  ).toBeVisible();
  await expect(page.getByText('Unmatched Policies Detected')).toBeVisible({ timeout: 60_000 });
  const critical = await criticalCount(page);
  await shot(page, '01-report');
  await expectAccessible(page, '01-report');

  // smart matching: the hand-made copy of CA000 is suggested and confirmed
  await page.getByRole('button', { name: 'Enable Smart Matching' }).click();
  const panel = page.getByRole('region', { name: 'Intelligent Policy Matching' });
  await expect(panel).toBeVisible();
  const card = panel.getByRole('group', { name: /Unmatched CA000/ });
  const suggestion = card
    .locator('div', { hasText: RENAMED_CLIENT_POLICY })
    .filter({ has: page.getByRole('button', { name: 'Confirm Match' }) })
    .last();
  await expect(suggestion).toBeVisible();
  await shot(page, '02-smart-matching');
  await expectAccessible(page, '02-smart-matching');

  // both policies side by side; the client's document is loaded when the dialog opens (ADR 040)
  await suggestion.getByRole('button', { name: 'View Detailed Comparison' }).click();
  const detail = page.getByRole('dialog');
  await expect(detail.getByRole('region', { name: 'Client policy JSON' })).toContainText(
    RENAMED_CLIENT_POLICY,
  );
  await expect(detail.getByRole('region', { name: 'Baseline policy JSON' })).toContainText('CA000');
  await shot(page, '02b-detailed-comparison');
  await expectAccessible(page, '02b-detailed-comparison');
  await detail.getByRole('button', { name: 'Close' }).click();
  await expect(detail).toBeHidden();
  await suggestion.getByRole('button', { name: 'Confirm Match' }).click();
  await expect(panel.getByText(/^1 of \d+ policies matched$/)).toBeVisible();
  await panel.getByRole('button', { name: 'Save & Exit' }).click();
  await expect(page.getByText('Saved 1 confirmed match(es).').first()).toBeVisible();
  await expect(page.getByText(/Confirmed Matches \(1\)/)).toBeVisible();

  // the matched policy is compared with its client copy: one critical (missing) fewer
  await expect.poll(() => criticalCount(page)).toBeLessThan(critical);
  const deviations = page.getByRole('region', { name: 'Policy Deviations by Service Area' });
  await deviations.getByRole('button', { name: 'Expand All' }).click();
  await expect(deviations.getByRole('button', { name: /CA000.*Matched/ })).toBeVisible();

  // accept two deviations of Group.Unified with a reason and an expiry
  await deviations.getByRole('button', { name: /Group\.Unified/ }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByText(/\d+ of \d+ selected/)).toBeVisible();
  await dialog.getByRole('checkbox', { name: 'Select all' }).click();
  const boxes = dialog.getByRole('group', { name: 'Deviations' }).getByRole('checkbox');
  await boxes.nth(0).check();
  await boxes.nth(1).check();
  await expect(dialog.getByText(/^2 of \d+ selected$/)).toBeVisible();
  await dialog.getByRole('textbox', { name: /^Reason/ }).fill(REASON);
  await dialog.getByLabel('Accepted until (optional)').fill(UNTIL);
  await shot(page, '03-accept-dialog');
  await expectAccessible(page, '03-accept-dialog');
  await dialog.getByRole('button', { name: /Accept (Selected|All) \(2\) Deviation\(s\)/ }).click();
  await expect(
    page.getByText(/Successfully accepted 2 deviation\(s\) for Group\.Unified/).first(),
  ).toBeVisible();

  // after a reload they are still accepted, in their own section
  await page.reload();
  const accepted = page.getByText('Accepted Deviations (2 in 1 policy)');
  await expect(accepted).toBeVisible({ timeout: 60_000 });
  await accepted.click();
  await expect(
    page.getByText(new RegExp(`Accepted by ${SAMPLE_STAFF.alex.upn}.*until ${UNTIL}: ${REASON}`)),
  ).toBeVisible();
  await shot(page, '04-accepted-section');

  // …and in the client's .accepted-deviations.json on main
  const file = await mainFile<{
    version: string;
    acceptedDeviations: {
      policyName: string;
      properties: string[];
      acceptedBy: string;
      reason: string;
      expiresAt: string;
    }[];
  }>('/Clients/FAB/.accepted-deviations.json');
  expect(file.version).toBe('1.0');
  expect(file.acceptedDeviations).toEqual([
    expect.objectContaining({
      policyName: 'Group.Unified',
      acceptedBy: SAMPLE_STAFF.alex.upn,
      reason: REASON,
      expiresAt: UNTIL,
    }),
  ]);
  expect(file.acceptedDeviations[0]?.properties).toHaveLength(2);
  const matching = await mainFile<{ matches: { clientName: string }[] }>(
    '/Clients/FAB/.matching-config.json',
  );
  expect(matching.matches.map((m) => m.clientName)).toEqual([RENAMED_CLIENT_POLICY]);

  // export Critical & High only, with a banner
  const banner = await page.screenshot({ clip: { x: 0, y: 0, width: 1200, height: 300 } });
  await page.getByRole('button', { name: 'Export Report' }).click();
  const exportDialog = page.getByRole('dialog');
  await expect(exportDialog.getByText('Export Compliance Report')).toBeVisible();
  await exportDialog
    .getByLabel('Company banner')
    .setInputFiles({ name: 'banner.png', mimeType: 'image/png', buffer: banner });
  await expect(exportDialog.getByRole('img', { name: 'Company banner preview' })).toBeVisible();
  await exportDialog.getByRole('radio', { name: /Critical & High Only/ }).check();
  await shot(page, '05-export-dialog');
  await expectAccessible(page, '05-export-dialog');
  const downloading = page.waitForEvent('download');
  await exportDialog.getByRole('button', { name: 'Export PDF' }).click();
  const download = await downloading;
  const name = download.suggestedFilename();
  expect(name).toMatch(/^FAB_Baseline_Compliance_Report_\d{4}-\d{2}-\d{2}\.pdf$/);
  await expect(page.getByText(`Successfully exported: ${name}`).first()).toBeVisible();
  await expect(exportDialog).toBeHidden({ timeout: 5000 });
  const pdf = path.join(SHOTS, name);
  await download.saveAs(pdf);
  const text = execFileSync('pdftotext', ['-layout', pdf, '-'], { encoding: 'utf8' });
  expect(text).toContain('Baseline Compliance Report');
  expect(text).toContain('Critical & High Only');
  expect(text).toContain('CONFIDENTIAL');
  expect(text).not.toMatch(/^\s*Medium\s{2,}/m);
  execFileSync('pdftoppm', ['-png', '-r', '70', pdf, path.join(SHOTS, 'pdf')]);
});
