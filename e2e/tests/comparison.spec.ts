import { execFileSync } from 'node:child_process';
import path from 'node:path';

import { expect, test, type Page } from '@playwright/test';

import { expectAccessible } from '../fixtures/a11y';
import { signIn } from '../fixtures/auth';
import { screenshotsFolder } from '../fixtures/paths';

const OUT = screenshotsFolder('comparison');
const PORT = Number(process.env.AEGIS_E2E_PORT ?? 3400);
/** The embedded DevOps emulator listens next to the portal; its fault endpoints need no token. */
const DEVOPS = `http://127.0.0.1:${PORT + 102}`;
const TITLE = 'Microsoft 365 Configuration Compliance Assessment';
const LOGO = path.resolve(import.meta.dirname, '../../apps/web/src/assets/aegis-logo.svg');

test.use({ permissions: ['clipboard-read', 'clipboard-write'] });

async function open(page: Page, route: string): Promise<void> {
  await signIn(page, route);
  // The sign-in dialog can leave aria-hidden on #root; a reload gives a clean page.
  await page.reload();
  await expect(page.getByRole('heading', { name: TITLE })).toBeVisible();
}

async function runComparison(page: Page, baseline: RegExp): Promise<void> {
  await page.getByRole('radio', { name: baseline }).check();
  await page.getByRole('button', { name: 'Run Comparison' }).click();
  await expect(page.getByRole('status', { name: 'Comparison' })).toContainText('Complete!');
  await expect(page.getByRole('status', { name: 'Comparison' })).toContainText('100%');
}

/** Saves the download, returns the PDF's text and page count, renders its pages to PNG. */
async function checkPdf(
  page: Page,
  expectedName: string,
): Promise<{ text: string; pages: number; file: string }> {
  const downloading = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export PDF' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe(expectedName);
  const file = path.join(OUT, expectedName);
  await download.saveAs(file);
  const text = execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' });
  const info = execFileSync('pdfinfo', [file], { encoding: 'utf8' });
  const pages = Number(/Pages:\s+(\d+)/.exec(info)?.[1] ?? 0);
  const prefix = path.join(OUT, expectedName.replace(/\.pdf$/, '').replace(/\W+/g, '-'));
  execFileSync('pdftoppm', ['-png', '-r', '60', '-f', '1', '-l', '4', file, prefix]);
  return { text, pages, file };
}

test('a technician runs both baselines, explores the results and exports both reports', async ({
  page,
  request,
}) => {
  test.setTimeout(240_000);
  await open(page, '/fetch-json-files');
  const run = page.getByRole('button', { name: 'Run Comparison' });
  await expect(run).toBeDisabled();
  await expect(page.getByLabel('Client')).toHaveValue('');
  await expect(page.getByLabel('Client').locator('option').first()).toHaveText(
    'Choose a client...',
  );
  await expect(
    page.getByRole('radio', { name: 'CIS Standard Baseline (70 checks)' }),
  ).toBeChecked();
  await expect(page.getByText('shows general security best practices')).toBeVisible();
  // The unchecked choice reads as a choice, not greyed out like a disabled one (issue 19).
  const labelColour = (name: string) =>
    page.getByText(name, { exact: true }).evaluate((label) => getComputedStyle(label).color);
  expect(await labelColour('Options Baseline')).toBe(
    await labelColour('CIS Standard Baseline (70 checks)'),
  );
  await page.screenshot({ path: `${OUT}/01-idle.png`, fullPage: true });
  await expectAccessible(page, '01-idle');

  await page.getByLabel('Client').selectOption('ABC');
  await expect(run).toBeEnabled();

  // Slow the repository reads so the running state can be seen (several reads: the first may be
  // a listing made for another request of the page).
  await request.post(`${DEVOPS}/_emulator/faults`, {
    data: { kind: 'latency', latencyInMs: 1500, pathPattern: 'items', times: 3 },
  });
  await page.getByRole('button', { name: 'Run Comparison' }).click();
  await expect(page.getByRole('button', { name: 'Running...' })).toBeDisabled();
  await expect(page.getByRole('status', { name: 'Comparison' })).toContainText(
    'Fetching configuration files...',
  );
  await page.screenshot({ path: `${OUT}/02-running.png`, fullPage: true });
  await expect(page.getByRole('status', { name: 'Comparison' })).toContainText('Complete!');

  await expect(page.getByRole('heading', { name: /Results for ABC/ })).toBeVisible();
  await expect(page.getByLabel('Overall score')).toContainText('%');
  await expect(page.getByLabel('Total passes')).toBeVisible();
  await expect(page.getByLabel('Total fails')).toBeVisible();
  await expect(page.getByRole('group', { name: 'Compliance by area' })).toBeVisible();
  await expect(page.getByLabel('Exchange Security area')).toContainText(
    /All Pass|Mixed|Needs Attention/,
  );
  await page.screenshot({ path: `${OUT}/03-standard-results.png`, fullPage: true });
  await expectAccessible(page, '03-standard-results');
  // The selection and the run live in the address (ADR 055): Back and a reload show the results
  await expect(page).toHaveURL(/[?&]client=ABC&run=1/);
  await page.goto('/fleet');
  await page.goBack();
  await expect(page.getByRole('heading', { name: /Results for ABC/ })).toBeVisible();
  await page.reload();
  await expect(page.getByLabel('Client')).toHaveValue('ABC');
  await expect(page.getByRole('heading', { name: /Results for ABC/ })).toBeVisible();

  // Only the fails, one category, expanded.
  await page.getByRole('switch', { name: 'Show All Results' }).click();
  await expect(page.getByRole('switch', { name: 'Show Only Fails' })).toBeChecked();
  await page.getByRole('tab', { name: 'Failed' }).click();
  await page.getByRole('searchbox', { name: 'Search categories' }).fill('exchange');
  const results = page.getByRole('table', { name: 'Comparison results' });
  await expect(results.getByRole('button', { name: 'Exchange Security' })).toBeVisible();
  await expect(results.getByRole('button', { name: 'Conditional Access' })).toHaveCount(0);
  await page.getByRole('button', { name: 'Expand All' }).click();
  await expect(results.getByRole('columnheader', { name: 'Expected Value' })).toBeVisible();
  await expect(results.getByRole('cell', { name: 'PASS', exact: true })).toHaveCount(0);
  await expect(results.getByRole('cell', { name: 'FAIL' }).first()).toBeVisible();
  await page.screenshot({ path: `${OUT}/04-fails-exchange.png`, fullPage: true });
  // Every category open: the rows make the page longer, they sit in no scroll box of their own.
  await page.getByRole('searchbox', { name: 'Search categories' }).fill('');
  await page.getByRole('tab', { name: 'All' }).click();
  await page.getByRole('switch', { name: 'Show Only Fails' }).click();
  await page.getByRole('button', { name: 'Expand All' }).click();
  const boxes = await results.evaluate((table) => ({
    own: table.scrollHeight - table.clientHeight,
    overflow: getComputedStyle(table).overflowY,
    page: document.documentElement.scrollHeight - window.innerHeight,
    height: table.clientHeight,
  }));
  expect(boxes.overflow).toBe('visible');
  expect(boxes.own).toBeLessThanOrEqual(1);
  expect(boxes.height).toBeGreaterThan(1000);
  expect(boxes.page).toBeGreaterThan(1000);
  // The last rows are rendered when the page scrolls down to them.
  // (the page grows while rows are measured: scroll again until the end stays put)
  await expect(async () => {
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    await expect(results.getByRole('cell', { name: /PASS|FAIL/ }).last()).toBeInViewport({
      timeout: 1000,
    });
  }).toPass();
  for (const [width, height] of [
    [1400, 900],
    [1024, 768],
  ] as const) {
    await page.setViewportSize({ width, height });
    await page.evaluate(() => window.scrollTo(0, 0));
    // the resized table re-measures its rows and may re-render the header meanwhile: retry
    await expect(async () => {
      await results
        .getByRole('columnheader', { name: 'Current Value' })
        .first()
        .scrollIntoViewIfNeeded({ timeout: 2_000 });
    }).toPass();
    await page.screenshot({ path: `${OUT}/04b-results-${width}x${height}.png` });
  }
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.getByRole('switch', { name: 'Show All Results' }).click();
  await page.getByRole('tab', { name: 'Failed' }).click();
  await page.getByRole('searchbox', { name: 'Search categories' }).fill('exchange');
  await page.getByRole('button', { name: 'Collapse All' }).click();
  await expect(results.getByRole('columnheader', { name: 'Expected Value' })).toHaveCount(0);
  await page.getByRole('button', { name: 'Expand All' }).click();

  // Area details.
  await page.getByRole('button', { name: 'View Details for Exchange Security' }).click();
  const details = page.getByRole('dialog', { name: /Exchange Security/ });
  await expect(details.getByText('Passing policies')).toBeVisible();
  await expect(details.getByText('Failing policies')).toBeVisible();
  await page.screenshot({ path: `${OUT}/05-area-details.png` });
  await expectAccessible(page, '05-area-details');
  await details.getByRole('button', { name: 'Close' }).click();

  // Configuration info: tabs, copy the path and the raw configuration.
  await results
    .getByRole('button', { name: /^Configuration info for / })
    .first()
    .click();
  const infoDialog = page.getByRole('dialog');
  await expect(infoDialog.getByRole('tab', { name: 'Overview' })).toBeVisible();
  await infoDialog.getByRole('tab', { name: 'Settings Details' }).click();
  await expect(infoDialog.getByRole('columnheader', { name: 'Raw Property' })).toBeVisible();
  await infoDialog.getByRole('tab', { name: 'Raw Configuration' }).click();
  await infoDialog.getByRole('button', { name: 'Copy to Clipboard' }).click();
  await expect(infoDialog.getByText('Configuration copied to clipboard')).toBeVisible();
  const copied = await page.evaluate<string>('navigator.clipboard.readText()');
  expect(copied.length).toBeGreaterThan(2);
  await expect(infoDialog.getByLabel('Raw configuration JSON')).toContainText(copied.slice(0, 20));
  await page.screenshot({ path: `${OUT}/06-info-raw.png` });
  await expectAccessible(page, '06-info-raw');
  await infoDialog.getByRole('tab', { name: 'Overview' }).click();
  const pathButton = infoDialog.getByRole('button', { name: /^Path .* \(click to copy\)$/ });
  await pathButton.click();
  await expect(infoDialog.getByText('Path copied to clipboard')).toBeVisible();
  expect(await page.evaluate<string>('navigator.clipboard.readText()')).toMatch(/\.json$/);
  await infoDialog.getByRole('button', { name: 'Close' }).click();

  // The standard report, failed results only, with a logo and a support message.
  await page.getByRole('button', { name: 'Export Report' }).click();
  const exportDialog = page.getByRole('dialog', { name: 'Export Report' });
  await exportDialog.getByLabel('Custom logo').setInputFiles(LOGO);
  await expect(exportDialog.getByRole('img', { name: 'Custom logo preview' })).toBeVisible();
  await exportDialog
    .getByRole('textbox', { name: /Support message/ })
    .fill('Call the Aegis service desk on 0800 000 000.');
  await exportDialog.getByRole('radio', { name: 'Export Failed Results Only' }).check();
  await page.screenshot({ path: `${OUT}/07-export-modal.png` });
  await expectAccessible(page, '07-export-modal');
  const standard = await checkPdf(page, 'ABC - Standard Baseline Report.pdf');
  expect(standard.pages).toBeGreaterThan(2);
  expect(standard.text).toContain('ABC');
  expect(standard.text).toContain('Showing Failed Results Only');
  expect(standard.text).toContain('About This Report');
  expect(standard.text).toContain('Support Information');
  expect(standard.text).toContain('Generated by Alex Morgan');
  expect(standard.text).toContain(`Page 1 of ${standard.pages}`);
  expect(standard.text).toContain(`Page ${standard.pages} of ${standard.pages}`);
  expect(standard.text).toMatch(/\d{2}\/\d{2}\/\d{4}/); // header date, en-GB

  // The company baseline, all results.
  await runComparison(page, /^Options Baseline$/);
  await expect(
    page.getByRole('heading', { name: /Results for ABC – Options Baseline/ }),
  ).toBeVisible();
  await expect(page.getByText('shows general security best practices')).toHaveCount(0);
  await page.getByRole('switch', { name: 'Show Only Fails' }).click();
  await page.getByRole('tab', { name: 'All' }).click();
  await page.getByRole('searchbox', { name: 'Search categories' }).fill('');
  await page.screenshot({ path: `${OUT}/08-options-results.png`, fullPage: true });
  await page.getByRole('button', { name: 'Export Report' }).click();
  await page
    .getByRole('dialog', { name: 'Export Report' })
    .getByRole('radio', { name: 'Export All Results' })
    .check();
  const options = await checkPdf(page, 'ABC - Options Baseline Report.pdf');
  expect(options.text).toContain('ABC');
  expect(options.text).not.toContain('Showing Failed Results Only');
  expect(options.text).not.toContain('About This Report');
  expect(options.text).toContain(`Page ${options.pages} of ${options.pages}`);
  expect(options.text).toMatch(/\.\.\./); // values truncated at 50 characters

  // Both configurations as formatted JSON.
  await page.getByRole('button', { name: 'View Both Configurations' }).click();
  const baseline = page.getByRole('region', { name: 'Baseline configuration' });
  await expect(baseline).toBeVisible();
  await baseline.getByRole('button').first().click();
  await expect(baseline.locator('pre').first()).toContainText('{\n  "');
  await page.screenshot({ path: `${OUT}/09-configurations.png`, fullPage: true });
  await expectAccessible(page, '09-configurations');
});

test('every sample client compares with both baselines', async ({ page }) => {
  await open(page, '/fetch-json-files');
  for (const client of ['ABC', 'CON', 'FAB', 'NWT', 'WWI']) {
    await page.getByLabel('Client').selectOption(client);
    for (const baseline of [/^CIS Standard Baseline/, /^Options Baseline$/]) {
      await runComparison(page, baseline);
      await expect(
        page.getByRole('heading', { name: new RegExp(`Results for ${client}`) }),
      ).toBeVisible();
    }
  }
});

test('the options variant shows its heading and a failing service gives the spec message', async ({
  page,
  request,
}) => {
  await open(page, '/fetch-json-files?baseline=options');
  await expect(page.getByRole('heading', { name: 'Options - Aegis' })).toBeVisible();
  await expect(page.getByRole('radio', { name: 'Options Baseline' })).toBeChecked();

  // Export with nothing compared.
  await page.getByLabel('Client').selectOption('WWI');
  // WWI was compared above, so its files come from the cache of reads at a commit (ADR 088): the
  // one DevOps call every comparison makes is the read of main's ref.
  await request.post(`${DEVOPS}/_emulator/faults`, {
    data: {
      kind: 'error',
      statusCode: 500,
      pathPattern: '/_apis/git/repositories/[^/]+/refs$',
      message: 'VS402371: The service is unavailable.',
    },
  });
  try {
    await page.getByRole('button', { name: 'Run Comparison' }).click();
    await expect(page.getByText(/^Error comparing files: .*VS402371/)).toBeVisible();
    await expect(page.getByRole('button', { name: 'Run Comparison' })).toBeEnabled();
    await page.screenshot({ path: `${OUT}/10-error.png`, fullPage: true });
    await expectAccessible(page, '10-error');
    await page.getByRole('button', { name: 'Export Report' }).click();
    await page.getByRole('button', { name: 'Export PDF' }).click();
    await expect(
      page.getByText('No comparison results found. Please compare files before exporting.'),
    ).toBeVisible();
    await page.getByRole('button', { name: 'Cancel' }).click();
  } finally {
    await request.delete(`${DEVOPS}/_emulator/faults`);
  }
  await runComparison(page, /^Options Baseline$/);
  await page.screenshot({ path: `${OUT}/11-options-variant.png`, fullPage: true });
});
