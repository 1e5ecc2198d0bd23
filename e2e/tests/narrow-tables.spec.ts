import { expect, test, type Locator } from '@playwright/test';

import { expectAccessible } from '../fixtures/a11y';
import { signIn } from '../fixtures/auth';
import { tokenFor } from '../fixtures/emulators';
import { screenshotsFolder } from '../fixtures/paths';

const OUT = screenshotsFolder('narrow-tables');

/** Scrolls the grid's own scroll box to its right end; returns how far it could scroll. */
async function scrollToEnd(grid: Locator): Promise<number> {
  return grid.evaluate((element) => {
    const box = element.parentElement!;
    box.scrollLeft = box.scrollWidth;
    return box.scrollWidth - box.clientWidth;
  });
}

/** The first cell of the first body row stays where the grid's box starts. */
async function expectFirstColumnInView(grid: Locator, firstCell: Locator) {
  const box = await grid.evaluate((element) => element.parentElement!.getBoundingClientRect().left);
  const cell = await firstCell.boundingBox();
  expect(cell).not.toBeNull();
  expect(Math.abs((cell?.x ?? -1000) - box)).toBeLessThanOrEqual(2);
  await expect(firstCell).toBeInViewport();
}

for (const [width, height] of [
  [1400, 900],
  [1024, 768],
] as const) {
  test(`Fleet and Audit Trail tables at ${width}x${height}: the first column stays while they scroll`, async ({
    page,
  }) => {
    test.setTimeout(240_000);
    await page.setViewportSize({ width, height });
    await signIn(page, '/fleet');
    await page.reload();
    const fleet = page.getByRole('grid', { name: 'Fleet' });
    await expect(fleet).toBeVisible({ timeout: 60_000 });
    await page.screenshot({ path: `${OUT}/fleet-${width}.png` });
    await expectAccessible(page, `fleet ${width}`);
    const overflow = await scrollToEnd(fleet);
    if (width === 1024) expect(overflow).toBeGreaterThan(0);
    const client = fleet.getByRole('row').nth(1).getByRole('gridcell').first();
    await expectFirstColumnInView(fleet, client);
    await page.screenshot({ path: `${OUT}/fleet-${width}-scrolled.png` });

    // one audited change, so the trail has a row
    await page.request.post('/api/app-tables', {
      data: { clientCode: width === 1400 ? 'NTA' : 'NTB' },
      headers: { authorization: `Bearer ${await tokenFor()}` },
    });
    await page.goto('/audit');
    const audit = page.getByRole('grid');
    await expect(audit).toBeVisible({ timeout: 30_000 });
    await expect(audit.getByText('Created an app table').first()).toBeVisible();
    await page.screenshot({ path: `${OUT}/audit-${width}.png` });
    await expectAccessible(page, `audit ${width}`);
    await scrollToEnd(audit);
    await expectFirstColumnInView(
      audit,
      audit.getByRole('row').nth(1).getByRole('gridcell').first(),
    );
    await page.screenshot({ path: `${OUT}/audit-${width}-scrolled.png` });

    await page.goto('/capture-management/ABC');
    await page.getByRole('button', { name: /^Archived/ }).click();
    await page.screenshot({ path: `${OUT}/capture-${width}.png`, fullPage: true });
    await expectAccessible(page, `capture ${width}`);
  });
}
