// `npm run test:live`: runs the connector contract suites against real services when their
// credentials are configured, each suite only when everything it needs is set. Read-only unless
// AEGIS_LIVE_WRITE=1, and then writing only to objects the suite creates and removes. With nothing
// configured it says what it needs and exits 0 without running anything (README: live checks).
import { spawnSync } from 'node:child_process';

interface LiveSuite {
  name: string;
  /** environment variables the suite needs, with what each is */
  needs: Readonly<Record<string, string>>;
  files: readonly string[];
}

/** Add a suite here: its files end in `.live.ts` (vitest.live.config.ts). */
export const LIVE_SUITES: readonly LiveSuite[] = [
  {
    name: 'Microsoft Graph (client tenant, app-only)',
    needs: {
      AEGIS_LIVE_TENANT_ID: 'the test tenant id',
      AEGIS_LIVE_CLIENT_ID: "the Aegis app registration's client id, consented in that tenant",
      AEGIS_LIVE_CLIENT_SECRET: 'a client secret of that app',
    },
    files: ['packages/emulators/src/live/graph.live.ts'],
  },
  {
    name: 'Azure Resource Manager (client subscription, app-only)',
    needs: {
      AEGIS_LIVE_TENANT_ID: 'the test tenant id',
      AEGIS_LIVE_CLIENT_ID:
        "the Aegis app registration's client id, with Reader on the subscription",
      AEGIS_LIVE_CLIENT_SECRET: 'a client secret of that app',
      AEGIS_LIVE_SUBSCRIPTION_ID: "the test tenant's subscription id",
    },
    files: ['packages/emulators/src/live/arm.live.ts'],
  },
  {
    name: 'Exchange admin API and Teams configuration service (client tenant, app-only, read-only)',
    needs: {
      AEGIS_LIVE_TENANT_ID: 'the test tenant id',
      AEGIS_LIVE_CLIENT_ID:
        "the Aegis app registration's client id, with Exchange.ManageAsApp and the Exchange and Teams Administrator roles there",
      AEGIS_LIVE_CLIENT_SECRET: 'a client secret of that app',
    },
    files: ['packages/emulators/src/live/admin.live.ts'],
  },
  {
    name: "Azure DevOps (the MSP's organisation, read-only)",
    needs: {
      AEGIS_LIVE_TENANT_ID: "the MSP's own tenant id",
      AEGIS_LIVE_CLIENT_ID: "the Aegis app's client id, added to the organisation as a user",
      AEGIS_LIVE_CLIENT_SECRET: 'a client secret of that app',
      AEGIS_DEVOPS_ORG_URL: 'https://dev.azure.com/{organization}',
      AEGIS_DEVOPS_PROJECT: 'the project holding the configuration repository',
    },
    files: ['apps/server/test/live/devops.live.ts'],
  },
];

const configured = LIVE_SUITES.filter((suite) =>
  Object.keys(suite.needs).every((name) => process.env[name]?.trim()),
);
for (const suite of LIVE_SUITES.filter((s) => !configured.includes(s))) {
  console.log(`Not run: ${suite.name}. It needs:`);
  for (const [name, what] of Object.entries(suite.needs)) {
    console.log(`  ${name}${process.env[name]?.trim() ? ' (set)' : ''}: ${what}`);
  }
}
if (configured.length === 0) {
  console.log(
    'No live suite is configured: nothing was tested against real services. Set the variables above (AEGIS_LIVE_WRITE=1 also lets a suite create and remove its own objects).',
  );
} else {
  console.log(
    `Running ${configured.map((s) => s.name).join(', ')} (${process.env['AEGIS_LIVE_WRITE'] === '1' ? 'writing only to objects it creates' : 'read-only'}).`,
  );
  const result = spawnSync(
    'npx',
    ['vitest', 'run', '--config', 'vitest.live.config.ts', ...configured.flatMap((s) => s.files)],
    { stdio: 'inherit' },
  );
  process.exitCode = result.status ?? 1;
}
