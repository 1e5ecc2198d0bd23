import { chromium } from '@playwright/test';
/** Retakes the README screenshots from a running `npm start` (default http://localhost:3000). */
const base = process.argv[2] ?? 'http://localhost:3000';
const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'],
});
const page = await browser.newPage({ viewport: { width: 1360, height: 860 } });
await page.goto(base + '/');
await page.getByText('500+').waitFor();
await page.screenshot({ path: 'docs/screenshots/landing.png' });
await page.goto(base + '/login?returnTo=%2Fazure-ado-projects');
await page.getByRole('button', { name: 'Sign In' }).click();
await page.getByRole('button', { name: /Priya Shah/ }).waitFor();
await page.waitForTimeout(800);
await page.screenshot({ path: 'docs/screenshots/sign-in.png' });
await page.getByRole('button', { name: /Alex Morgan/ }).click();
await page.getByText('Logged in user: Alex Morgan').waitFor();
await page.getByRole('link', { name: 'Aegis Tenant Management pipelines' }).waitFor();
await page.screenshot({ path: 'docs/screenshots/projects.png' });
await page.goto(base + '/fetch-json-files');
await page.getByLabel('Client').selectOption('FAB');
await page.getByRole('button', { name: 'Run Comparison' }).click();
await page.getByText('Complete!').waitFor({ timeout: 30000 });
await page.waitForTimeout(500);
await page.screenshot({ path: 'docs/screenshots/comparison.png', fullPage: false });
await page.goto(base + '/tenant-backup');
await page.getByLabel('Tenant').selectOption('ABC');
await page.getByRole('table', { name: 'Backup history' }).waitFor();
await page.waitForTimeout(500);
await page.screenshot({ path: 'docs/screenshots/tenant-backups.png' });
await page.goto(base + '/storage-tables-list');
await page.waitForTimeout(1500);
await page.screenshot({ path: 'docs/screenshots/app-tables.png' });
await browser.close();
