import { mkdir } from 'node:fs/promises';

import { chromium } from '@playwright/test';

/**
 * A screenshot tour of every screen from a running `npm start` (default http://localhost:3000):
 * each screen at 1400×900 and 1024×768 into `.aegis/screenshots/<size>/` to look at, and the
 * README's screenshots (1400×900) into `docs/screenshots/`.
 *
 *   node e2e/readme-screenshots.mjs [base URL]
 */
const base = process.argv[2] ?? 'http://localhost:3000';
const SIZES = [
  { width: 1400, height: 900 },
  { width: 1024, height: 768 },
];
const README = new Set([
  'landing',
  'sign-in',
  'fleet',
  'compliance',
  'comparison',
  'tenant-backups',
  'capture-review',
  'onboarding',
  'app-tables',
  'schedules',
]);

const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'],
});

for (const size of SIZES) {
  const folder = `.aegis/screenshots/${size.width}x${size.height}`;
  await mkdir(folder, { recursive: true });
  const page = await browser.newPage({ viewport: size });
  let shot = 0;
  /** Waits until the screen says nothing is loading any more. */
  async function settled() {
    await page.waitForLoadState('networkidle');
    await page.waitForFunction(
      () => !/Loading|Fetching/.test(globalThis.document.body.innerText),
      null,
      {
        timeout: 120_000,
      },
    );
  }
  /** A screenshot of what the user sees now (and the whole page when it scrolls). */
  async function take(name, { fullPage = false } = {}) {
    await page.waitForTimeout(400);
    shot += 1;
    const file = `${folder}/${String(shot).padStart(2, '0')}-${name}.png`;
    await page.screenshot({ path: file, fullPage });
    if (size.width === 1400 && README.has(name))
      await page.screenshot({ path: `docs/screenshots/${name}.png` });
    console.log(file);
  }

  await page.goto(`${base}/`);
  await page.getByText('500+').waitFor();
  await take('landing');

  await page.goto(`${base}/login?returnTo=%2Fazure-ado-projects`);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await page.getByRole('button', { name: /Priya Shah/ }).waitFor();
  await take('sign-in');
  await page.getByRole('button', { name: /Alex Morgan/ }).click();
  await page.getByText('Logged in user: Alex Morgan').waitFor();

  // Projects and a project's pipelines
  await page.getByRole('link', { name: /^Client App Deployments/ }).waitFor();
  await take('projects');
  await page.getByRole('link', { name: /^Client App Deployments/ }).click();
  await page.getByRole('button', { name: 'Run Pipeline' }).first().waitFor();
  await take('associated-pipelines');

  // Configuration Comparison: the standard baseline, the company baseline, both configurations
  await page.goto(`${base}/fetch-json-files`);
  await page.getByLabel('Client').selectOption('FAB');
  await page.getByRole('button', { name: 'Run Comparison' }).click();
  await page.getByText('Complete!').waitFor({ timeout: 60_000 });
  await take('comparison');
  await take('comparison-full', { fullPage: true });
  await page
    .getByRole('radio', { name: /Company baseline|Options|main/i })
    .first()
    .check();
  await page.getByRole('button', { name: 'Run Comparison' }).click();
  await page.getByText('Complete!').waitFor({ timeout: 60_000 });
  await take('comparison-company-baseline');
  const viewBoth = page.getByRole('button', { name: 'View Both Configurations' }).first();
  if (await viewBoth.count()) {
    await viewBoth.click();
    const baseline = page.getByRole('region', { name: 'Baseline configuration' });
    await baseline.waitFor({ timeout: 60_000 });
    await page.waitForTimeout(800); // the scroll to the panel is animated
    await take('comparison-view-both');
  }

  // Tenant Backups and a backup's comparison
  await page.goto(`${base}/tenant-backup`);
  await page.getByLabel('Tenant').selectOption('ABC');
  await page.getByRole('table', { name: 'Backup history' }).waitFor();
  await take('tenant-backups');
  await page
    .getByRole('button', { name: /^Compare/ })
    .first()
    .click();
  await page.getByRole('dialog').waitFor();
  await page.waitForTimeout(1500);
  await take('backup-comparison');
  await page.keyboard.press('Escape');

  // App Deploy tables
  await page.goto(`${base}/storage-tables-list`);
  const tables = page.getByRole('list', { name: 'Table names' });
  await tables.getByRole('button', { name: 'ABCWorkstationApps' }).click();
  await page.getByRole('table', { name: 'Rows of ABCWorkstationApps' }).waitFor();
  await take('app-tables');
  await page.goto(`${base}/create-azure-storage-table`);
  await settled();
  await take('app-tables-new');
  await page.goto(`${base}/update-existing-table`);
  await settled();
  await take('app-tables-update');

  // The second wave's screens
  await page.goto(`${base}/fleet`);
  await page.getByRole('grid').first().waitFor({ timeout: 120_000 });
  await settled();
  await take('fleet');
  await page.goto(`${base}/capture-management/FAB?view=baseline`);
  await settled();
  await take('compliance');
  await page.goto(`${base}/pipelines-list`);
  await settled();
  await take('client-pipelines');
  await page.goto(`${base}/capture-management/WWI`);
  await settled();
  await take('capture-review');
  await page.goto(`${base}/tenant-baseline-options`);
  await settled();
  await take('onboarding');
  // the tab shell's other tabs: deploy and off-board of baseline components
  for (const [tab, name] of [
    ['Baseline Deployment', 'baseline-deployment'],
    ['Off-Board Tenant', 'offboard'],
  ]) {
    await page.getByRole('tab', { name: tab }).click();
    await settled();
    await take(name, { fullPage: true });
  }
  await page.goto(`${base}/trigger-capture`);
  await settled();
  await take('trigger-capture');
  await page.goto(`${base}/AppDeploy-Onboarding`);
  await settled();
  await take('appdeploy-onboarding');
  await page.goto(`${base}/AppDeploy-Onboarding-New`);
  await settled();
  await take('appdeploy-onboarding-new');
  await page.goto(`${base}/global-admin-onboard`);
  await settled();
  await take('global-admin-onboard');
  await page.goto(`${base}/audit`);
  await settled();
  await take('audit');
  await page.goto(`${base}/ClientPipelineSchedules`);
  await settled();
  await take('schedules');
  await page.goto(`${base}/ViewAppList`);
  await settled();
  await take('client-yaml');
  await page.goto(`${base}/no-such-page`);
  await page.getByText('Page not found').waitFor();
  await take('not-found');
  await page.close();
}
await browser.close();
