import { expect, test, type Locator, type Page } from '@playwright/test';

import { expectAccessible } from '../fixtures/a11y';
import { signIn } from '../fixtures/auth';
import { screenshotsFolder } from '../fixtures/paths';

const SHOTS = screenshotsFolder('screens');

/** A form field by its exact label (a required field's label ends with an asterisk). */
function field(page: Page, name: string) {
  return page.getByLabel(new RegExp(`^${name}\\s*\\*?$`));
}

/**
 * Signs in, then reloads: the sign-in dialog unmounts while open and leaves aria-hidden on
 * #root (reported to the shell owner), which would hide every role from the locators.
 */
async function signInTo(page: Page, path: string): Promise<void> {
  await signIn(page, path);
  await page.reload();
}

function banner(page: Page) {
  return page.locator('[role="alert"], [role="status"]').filter({ hasNotText: /^$/ }).first();
}

/** How many pixels of an input's placeholder are cut off (0 when it is read whole). */
function placeholderCutOff(input: Locator): Promise<number> {
  return input.evaluate((element) => {
    if (!(element instanceof HTMLInputElement)) throw new Error('not an input');
    const style = getComputedStyle(element);
    const context = document.createElement('canvas').getContext('2d');
    if (!context) throw new Error('no canvas');
    context.font = style.font;
    const text = context.measureText(element.placeholder).width;
    const room =
      element.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
    return Math.max(0, Math.ceil(text - room));
  });
}

/** A client code no earlier run used, so the journey also works on persistent data. */
function freshClientCode(): string {
  const letters = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
  const pick = () => letters[Math.floor(Math.random() * letters.length)];
  return `Q${pick()}${pick()}`;
}

test('the table viewer finds a table by prefix and sorts its rows', async ({ page }) => {
  await page.goto('/storage-tables-list');
  await expect(page).toHaveURL(/\/login/);
  await signInTo(page, '/storage-tables-list');
  await expect(page.getByRole('heading', { name: 'App Deploy Table Viewer' })).toBeVisible();

  const tables = page.getByRole('list', { name: 'Table names' });
  await expect(tables.getByRole('button', { name: 'GENWorkstationApps' })).toBeVisible();
  await page.getByRole('searchbox', { name: 'Search tables' }).fill('ab');
  await expect(tables.getByRole('button', { name: 'ABCWorkstationApps' })).toBeVisible();
  await expect(tables.getByRole('button', { name: 'GENWorkstationApps' })).toBeHidden();
  await page.getByRole('searchbox', { name: 'Search tables' }).fill('GEN');
  await tables.getByRole('button', { name: 'GENWorkstationApps' }).click();

  const grid = page.getByRole('table', { name: 'Rows of GENWorkstationApps' });
  await expect(grid.getByRole('columnheader').first()).toHaveText('Status');
  await expect(grid.getByRole('row')).toHaveCount(37);
  await expect(grid.getByRole('cell', { name: 'Disabled' }).first()).toBeVisible();

  // every sortable header shows a neutral sort icon before it is clicked, and none claims a sort
  const headers = grid.getByRole('columnheader');
  const headerCount = await headers.count();
  expect(headerCount).toBeGreaterThan(20);
  await expect(grid.locator('th [data-sort-icon="none"] svg')).toHaveCount(headerCount);
  await expect(grid.locator('th[aria-sort]')).toHaveCount(0);

  const appName = grid.getByRole('columnheader', { name: /^AppName/ });
  await appName.getByRole('button').click();
  await expect(appName).toHaveAttribute('aria-sort', 'ascending');
  await expect(grid.locator('th[aria-sort]')).toHaveCount(1);
  await expect(grid.locator('th [data-sort-icon="none"] svg')).toHaveCount(headerCount - 1);
  const firstAppName = grid.getByRole('row').nth(1).getByRole('cell').nth(1);
  await expect(firstAppName).toHaveText('7-Zip');
  await appName.getByRole('button').click();
  await expect(appName).toHaveAttribute('aria-sort', 'descending');
  await expect(firstAppName).toHaveText('Zoom Workplace');
  await page.screenshot({ path: `${SHOTS}/app-tables-viewer.png`, fullPage: true });
  await expectAccessible(page, 'app-tables-viewer');

  // the top scroll bar follows the bottom one
  const scroller = page.getByTestId('bottom-scrollbar');
  await scroller.evaluate((el) => (el.scrollLeft = 400));
  await expect
    .poll(() => page.getByTestId('top-scrollbar').evaluate((el) => el.scrollLeft))
    .toBeGreaterThan(0);

  // scrolled to the far right, Status and AppName stay in view, opaque and on top
  await scroller.evaluate((el) => (el.scrollLeft = el.scrollWidth));
  await expect.poll(() => scroller.evaluate((el) => el.scrollLeft)).toBeGreaterThan(1000);
  const status = grid.getByRole('columnheader', { name: /^Status/ });
  const box = async (locator: typeof grid) => {
    const found = await locator.boundingBox();
    if (!found) throw new Error('not laid out');
    return found;
  };
  const frame = await box(scroller);
  expect(Math.abs((await box(status)).x - frame.x)).toBeLessThan(2);
  expect(
    Math.abs((await box(appName)).x - ((await box(status)).x + (await box(status)).width)),
  ).toBeLessThan(2);
  for (const cell of [
    status,
    appName,
    firstAppName,
    grid.getByRole('row').nth(1).getByRole('cell').first(),
  ]) {
    // the cell is what the pointer hits at its centre (not a scrolled cell drawn over it) ...
    const hit = await cell.evaluate((el) => {
      const rect = el.getBoundingClientRect();
      const top = document.elementFromPoint(rect.x + rect.width / 2, rect.y + rect.height / 2);
      return top !== null && el.contains(top);
    });
    expect(hit).toBe(true);
    // ... and its background is opaque, so nothing shows through
    const alpha = await cell.evaluate((el) => {
      const match = /rgba?\(([^)]+)\)/.exec(getComputedStyle(el).backgroundColor);
      const parts = match?.[1]?.split(',') ?? [];
      return parts.length === 4 ? Number(parts[3]) : parts.length === 3 ? 1 : 0;
    });
    expect(alpha).toBe(1);
  }
  await page.screenshot({ path: `${SHOTS}/app-tables-viewer-scrolled.png`, fullPage: true });
  await expectAccessible(page, 'app-tables-viewer-scrolled');

  // keyboard: Tab from AppName's header to the next one brings it out from under the sticky pair
  await appName.getByRole('button').focus();
  await page.keyboard.press('Tab');
  const partitionKey = grid.getByRole('columnheader', { name: /^PartitionKey/ });
  await expect(partitionKey.getByRole('button')).toBeFocused();
  await expect
    .poll(
      async () =>
        (await box(partitionKey)).x - ((await box(appName)).x + (await box(appName)).width),
    )
    .toBeGreaterThanOrEqual(-1);
  await page.keyboard.press('Enter');
  await expect(partitionKey).toHaveAttribute('aria-sort', 'ascending');

  await page.getByRole('button', { name: 'Back to Table List' }).click();
  await expect(page.getByRole('searchbox', { name: 'Search tables' })).toBeVisible();
});

test('a client table is created, filled, and maintained', async ({ page }) => {
  const code = freshClientCode();
  const table = `${code}WorkstationApps`;
  await signInTo(page, '/Create-Azure-Storage-Table');
  await expect(page.getByRole('heading', { name: 'Create New App Deploy Table' })).toBeVisible();
  // the client code's hint is read whole
  await expect(page.getByLabel('Client Code')).toHaveAttribute('placeholder', /e\.g\. ABC/);
  expect(await placeholderCutOff(page.getByLabel('Client Code'))).toBe(0);

  await page.getByRole('button', { name: 'Create New Client Table' }).click();
  await expect(banner(page)).toHaveText('Please enter a client code.');
  await page.getByRole('button', { name: 'Add Applications' }).click();
  await expect(banner(page)).toHaveText('Please select at least one application.');
  await page.getByRole('checkbox', { name: /^7-Zip/ }).check();
  await page.getByRole('checkbox', { name: /^Google Chrome/ }).check();
  await page.getByRole('checkbox', { name: /^Notepad\+\+/ }).check();
  await page.getByRole('button', { name: 'Add Applications' }).click();
  await expect(banner(page)).toHaveText('No table to update. Please create a table first.');

  await page.getByLabel('Client Code').fill(code);
  await page.getByRole('button', { name: 'Create New Client Table' }).click();
  await expect(banner(page)).toHaveText(`Table ${table} created successfully.`);
  await page.getByRole('button', { name: 'Create New Client Table' }).click();
  await expect(banner(page)).toHaveText('The table specified already exists.');
  await page.getByRole('button', { name: 'Add Applications' }).click();
  await expect(banner(page)).toHaveText('Table updated with selected applications.');
  await page.screenshot({ path: `${SHOTS}/app-tables-create.png`, fullPage: true });
  await expectAccessible(page, 'app-tables-create');

  // Update Existing App Deploy Table
  await page.getByRole('button', { name: 'Return to Tables' }).click();
  await expect(page).toHaveURL(/\/storage-tables-list$/);
  await page.getByRole('link', { name: 'Update Existing App Deploy Table' }).click();
  await page.getByLabel('Table', { exact: true }).selectOption(table);
  const type = page.getByLabel('Update type');

  // new app, with an msi uninstaller
  await type.selectOption('new');
  await expect(field(page, 'RowKey')).toHaveValue('0004');
  await expect(field(page, 'PartitionKey')).toHaveValue('appinfo-pk1');
  await expect(field(page, 'ExitCode')).toHaveValue('@(0, 3010, 1605, 1614, 1641)');
  await page.getByRole('button', { name: 'Add New App' }).click();
  await expect(banner(page)).toHaveText('Please fill in all the required fields.');
  await expect(page.getByText('Required', { exact: true })).toHaveCount(18);
  await page.screenshot({ path: `${SHOTS}/app-tables-new-app-required.png`, fullPage: true });

  await field(page, 'UninstallerLocation').fill('C:\\Program Files\\Everything\\Uninstall.exe');
  const values: Record<string, string> = {
    AppName: 'Everything',
    Description: 'Locate files and folders by name instantly.',
    Install: 'msiexec /i Everything-1.4.1.1026.x64.msi /qn',
    Publisher: 'voidtools',
    SoftwareName: 'Everything 1.4.1.1026 (x64)',
    URI: 'https://www.voidtools.com/Everything-1.4.1.1026.x64.msi',
    Version: '1.4.1.1026',
    AssignmentScopeAvailable: 'All Users',
    AssignmentScopeRequired: 'All Devices',
    ProjectURL: 'https://www.voidtools.com',
    IconPath: 'https://aegis-msp.example/icons/everything.png',
  };
  for (const [name, value] of Object.entries(values)) await field(page, name).fill(value);
  for (const [name, value] of Object.entries({
    Architecture: 'x64',
    InstallFileType: 'msi',
    UninstallFileType: 'msi',
    DownloadFileType: 'msi',
    InstallExperience: 'system',
  })) {
    await field(page, name).selectOption(value);
  }
  await expect(field(page, 'Uninstall')).toHaveValue('autouninstall');
  await expect(field(page, 'UninstallerLocation')).toHaveValue('');
  await expect(field(page, 'UninstallerLocation')).toBeDisabled();
  await page.screenshot({ path: `${SHOTS}/app-tables-new-app-msi.png`, fullPage: true });
  await expectAccessible(page, 'app-tables-new-app-msi');
  await page.getByRole('button', { name: 'Add New App' }).click();
  await expect(banner(page)).toHaveText('New app added.');

  // add a property to every row, then delete it
  await type.selectOption('newProperty');
  await page.getByRole('button', { name: 'Add Property' }).click();
  await expect(banner(page)).toHaveText('Please fill in both property name and value.');
  await page.getByLabel('Property Name').fill('Detection');
  await page.getByLabel('Property Value').fill('registry');
  await page.getByRole('button', { name: 'Add Property' }).click();
  await expect(banner(page)).toHaveText('Property Detection added to all entities.');

  await type.selectOption('deleteProperty');
  await page.getByRole('button', { name: 'Delete Property' }).click();
  await expect(banner(page)).toHaveText('Please select the property name.');
  const property = page.getByLabel('Property', { exact: true });
  await expect(property.locator('option', { hasText: 'Detection' })).toHaveCount(1);
  for (const key of ['PartitionKey', 'RowKey', 'timestamp', 'etag']) {
    await expect(property.locator(`option[value="${key}"]`)).toHaveCount(0);
  }
  await property.selectOption('Detection');
  await page.getByRole('button', { name: 'Delete Property' }).click();
  await expect(banner(page)).toHaveText('Property Detection deleted from all entities.');

  // update an app
  await type.selectOption('update');
  await page.getByRole('button', { name: 'Update App' }).click();
  await expect(banner(page)).toHaveText('Please select an app to update.');
  await page.getByLabel('App', { exact: true }).selectOption({ label: '7-Zip (0001)' });
  // the same fields as the new-app form: the spec's values in selects
  for (const name of ['Architecture', 'InstallFileType', 'InstallExperience', 'Status']) {
    await expect(field(page, name)).toHaveJSProperty('tagName', 'SELECT');
  }
  await page.screenshot({ path: `${SHOTS}/app-tables-update-app.png`, fullPage: true });
  await expectAccessible(page, 'app-tables-update-app');
  await field(page, 'Version').fill('24.10');
  await page.getByRole('button', { name: 'Update App' }).click();
  await expect(banner(page)).toHaveText('App updated.');

  // delete apps
  await type.selectOption('delete');
  await page.getByRole('checkbox', { name: /^Google Chrome/ }).check();
  await page.getByRole('checkbox', { name: /^Notepad\+\+/ }).check();
  await page.getByRole('button', { name: 'Delete Selected Apps' }).click();
  await expect(banner(page)).toHaveText('Selected applications deleted.');
  await page.screenshot({ path: `${SHOTS}/app-tables-update.png`, fullPage: true });
  await expectAccessible(page, 'app-tables-update');

  // the viewer shows what is left
  await page.getByRole('button', { name: 'Return to Tables' }).click();
  await page.getByRole('searchbox', { name: 'Search tables' }).fill(code.toLowerCase());
  await page.getByRole('button', { name: table }).click();
  const grid = page.getByRole('table', { name: `Rows of ${table}` });
  await expect(grid.getByRole('row')).toHaveCount(3);
  await expect(grid.getByRole('cell', { name: '24.10', exact: true })).toBeVisible();
  await expect(grid.getByRole('cell', { name: 'Everything', exact: true })).toBeVisible();
  await expect(grid.getByRole('columnheader', { name: /^Detection/ })).toHaveCount(0);
});
