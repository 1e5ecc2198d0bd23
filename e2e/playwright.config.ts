import path from 'node:path';

import { defineConfig } from '@playwright/test';

import { CHECKOUT, TEST_RESULTS } from './fixtures/paths';

/** E2E runs against `npm start`'s embedded default on its own ports and a fresh data folder. */
const PORT = Number(process.env.AEGIS_E2E_PORT ?? 3400);
export const BASE_URL = `http://localhost:${PORT}`;
/** Journeys that deploy to sample tenants (each deploy takes a backup first). */
const TENANT_DEPLOYS =
  /(drift-alert-revert|parameter-deploy|rollouts|rollout-rings|rollout-unread)\.spec\.ts$/;

export default defineConfig({
  testDir: './tests',
  // inside this checkout (gitignored), never next to it: checkouts on one machine do not share it
  outputDir: TEST_RESULTS,
  fullyParallel: false,
  workers: 1,
  retries: process.env.CI ? 1 : 0,
  // a budget per journey on a busy 2-core CI machine, not a speed assertion (speed is in `npm run bench`)
  timeout: 120_000,
  expect: { timeout: 15_000 },
  reporter: process.env.CI
    ? [['list']]
    : [
        ['list'],
        ['html', { open: 'never', outputFolder: path.join(CHECKOUT, 'playwright-report') }],
      ],
  use: {
    baseURL: BASE_URL,
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
  projects: [
    // The drift journey reads the sample tenants' own drift: it runs first, before journeys that
    // change tenants and main on the same stack (capture approvals, deploys, restores).
    { name: 'sample-drift', testMatch: /drift\.spec\.ts$/ },
    // Promotion reads FAB's Group.Unified deviations, which the baseline compliance journey accepts.
    { name: 'parameters', testMatch: /parameters\.spec\.ts$/, dependencies: ['sample-drift'] },
    {
      name: 'journeys',
      testIgnore: [/drift\.spec\.ts$/, /parameters\.spec\.ts$/, TENANT_DEPLOYS],
      dependencies: ['parameters'],
    },
    // Reverting drift and rollouts deploy to NWT and FAB, the parameterised deploy to ABC and CON,
    // and every deploy backs the tenant up first: the backup health and history other journeys
    // read would change under them.
    { name: 'tenant-deploys', testMatch: TENANT_DEPLOYS, dependencies: ['journeys'] },
  ],
  webServer: {
    command: 'npx tsx scripts/start.ts --reset',
    cwd: '..',
    url: `${BASE_URL}/api/health`,
    timeout: 180_000,
    reuseExistingServer: false,
    stdout: 'ignore',
    env: {
      AEGIS_PORT: String(PORT),
      AEGIS_DATA_DIR: process.env.AEGIS_E2E_DATA_DIR ?? '.aegis/e2e',
      AEGIS_PIPELINE_DURATION_MS: '1500',
      AEGIS_LOG_LEVEL: 'warn',
    },
  },
});
