import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { DEVOPS_RESOURCE, type DevOpsApi } from '@aegis/connectors/devops';
import {
  AEGIS_ENTERPRISE_APP,
  aegisAppRegistration,
  buildDevOpsServer,
  buildTenantEmulator,
  jwksTenantTokenVerifier,
  jwksTokenVerifier,
  listenDevOpsEmulator,
  listenTenantEmulator,
  SAMPLE_PROJECTS,
  seedDevOps,
  startAzurite,
  startIdentityProvider,
  TENANT_EMULATOR_AUDIENCES,
  tenantTaskRuntime,
  tenantWorldDirectory,
  type DevOpsEmulator,
  type IdentityProvider,
  type RunningAzurite,
  type TaskRuntime,
  type TenantEmulator,
  type TenantWorld,
} from '@aegis/emulators';

import { build, SAMPLE_USER, TEST_AUDIENCE, type TestApp } from './helper';

export interface DevOpsFixture {
  readonly emulator: DevOpsEmulator;
  close(): Promise<void>;
}

/**
 * A seeded DevOps emulator in a temporary folder that accepts only tokens of `idp`: for Azure
 * DevOps (what the server obtains on-behalf-of, ADR 031) and, unless `devopsTokensOnly`, also the
 * Aegis API's own (tests that call the connector directly, or build the app without a secret).
 */
export async function startSeededDevOps(
  idp: IdentityProvider,
  options: {
    pipelineDurationInMs?: number;
    devopsTokensOnly?: boolean;
    /** the pipelines' work (ADR 023); without it the runner only waits (backups tag main) */
    taskRuntime?: TaskRuntime;
    /** the day the seed's commits, pull requests and backups are dated back from */
    now?: Date;
  } = {},
): Promise<DevOpsFixture> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'aegis-devops-'));
  await seedDevOps(dataDir, options.now ? { now: options.now } : {});
  const emulator = await listenDevOpsEmulator(
    buildDevOpsServer({
      dataDir,
      pipelineDurationInMs: options.pipelineDurationInMs ?? 300,
      ...(options.taskRuntime ? { taskRuntime: options.taskRuntime } : {}),
      verifyToken: jwksTokenVerifier(
        idp,
        options.devopsTokensOnly ? [DEVOPS_RESOURCE] : [DEVOPS_RESOURCE, idp.audience],
      ),
    }),
    { port: 0 },
  );
  return {
    emulator,
    close: async () => {
      await emulator.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** A seeded DevOps emulator with its own identity provider, and a token of the sample user: for service tests. */
export interface SeededDevOpsForUser extends DevOpsFixture {
  readonly token: string;
}

export async function startSeededDevOpsForUser(
  options: { pipelineDurationInMs?: number } = {},
): Promise<SeededDevOpsForUser> {
  const idp = await startIdentityProvider({ port: 0, audience: TEST_AUDIENCE, allowedOrigins: [] });
  const token = await idp.issueToken(SAMPLE_USER);
  const devops = await startSeededDevOps(idp, options);
  return {
    emulator: devops.emulator,
    token,
    close: async () => {
      await devops.close();
      await idp.close();
    },
  };
}

export interface AppWithDevOps {
  readonly t: TestApp;
  readonly devops: DevOpsFixture;
  /** the simulated client tenants the pipelines' tasks work on, when asked for */
  readonly tenants?: TenantEmulator;
  /** Azurite, the Table storage of the app, when asked for */
  readonly azurite?: RunningAzurite;
  /**
   * Another instance of the same app against the same emulators and Table storage, as a second
   * server behind a load balancer (ADR 060); closed with the rest.
   */
  another(ports?: Parameters<typeof build>[2]): Promise<TestApp>;
  close(): Promise<void>;
}

/** The app wired as `npm start` wires it: identity provider, seeded DevOps emulator, sample project. */
export async function buildWithSeededDevOps(
  options: {
    pipelineDurationInMs?: number;
    /** ports to inject instead of the adapters built from configuration (e.g. AppTables) */
    ports?: Parameters<typeof build>[2];
    /**
     * the simulated client tenants: the runner then runs the pipelines' tasks against the tenant
     * emulator with the Aegis app's tokens, as `npm start` does
     */
    world?: TenantWorld;
    /** Table storage (Azurite in a temporary folder) for the app tables, audit and shared state */
    tables?: boolean;
    /**
     * A fixed "now" for the seed's dates and the app's clock, so that a test comparing them with
     * today does not depend on when it runs
     */
    now?: Date;
    /** more settings of the app, e.g. its notification intervals */
    env?: Record<string, string>;
  } = {},
): Promise<AppWithDevOps> {
  // the Aegis app registration, so the server trades tokens on-behalf-of as `npm start` does
  const aegisApp = aegisAppRegistration(TEST_AUDIENCE);
  const idp = await startIdentityProvider({
    port: 0,
    audience: TEST_AUDIENCE,
    allowedOrigins: [],
    applications: [aegisApp],
    // the MSP's tenant, where the Aegis app gets its own DevOps token (ADR 051)
    homeTenantId: AEGIS_ENTERPRISE_APP.ownerTenantId,
    ...(options.world ? { directory: tenantWorldDirectory(options.world) } : {}),
  });
  const tenants = options.world
    ? await listenTenantEmulator(
        buildTenantEmulator({
          world: options.world,
          verifyToken: jwksTenantTokenVerifier({
            jwksUrl: idp.jwksUrl,
            audiences: TENANT_EMULATOR_AUDIENCES,
          }),
        }),
        { port: 0 },
      )
    : undefined;
  const azuriteDir = options.tables
    ? await mkdtemp(path.join(tmpdir(), 'aegis-tables-'))
    : undefined;
  const azurite = azuriteDir ? await startAzurite({ location: azuriteDir }) : undefined;
  const devops = await startSeededDevOps(idp, {
    ...(options.now ? { now: options.now } : {}),
    ...(options.pipelineDurationInMs !== undefined
      ? { pipelineDurationInMs: options.pipelineDurationInMs }
      : {}),
    ...(tenants
      ? {
          taskRuntime: tenantTaskRuntime({
            identityProviderUrl: idp.url,
            clientId: aegisApp.clientId,
            clientSecret: aegisApp.clientSecret,
            tenantEmulatorUrl: () => tenants.url,
            // the drift check records its results there (ADR 063)
            ...(azurite ? { tablesConnectionString: azurite.connectionString } : {}),
          }),
        }
      : {}),
  });
  const env = {
    AEGIS_DEVOPS_ORG_URL: devops.emulator.url,
    AEGIS_DEVOPS_PROJECT: SAMPLE_PROJECTS.tenantManagement,
    AEGIS_LOGIN_URL: idp.url,
    AEGIS_APP_CLIENT_ID: aegisApp.clientId,
    AEGIS_APP_CLIENT_SECRET: aegisApp.clientSecret,
    AEGIS_ENTRA_TENANT_ID: AEGIS_ENTERPRISE_APP.ownerTenantId,
    ...(azurite ? { AEGIS_TABLES_CONNECTION_STRING: azurite.connectionString } : {}),
    ...options.env,
  };
  const clock = options.now;
  const ports = clock ? { now: () => new Date(clock), ...options.ports } : options.ports;
  const t = await build(env, idp, ports);
  const others: TestApp[] = [];
  return {
    t,
    devops,
    ...(tenants ? { tenants } : {}),
    ...(azurite ? { azurite } : {}),
    another: async (otherPorts = ports) => {
      const other = await build(env, idp, otherPorts);
      others.push(other);
      return other;
    },
    close: async () => {
      for (const other of others) await other.close();
      await t.close();
      await devops.close();
      await tenants?.close();
      await azurite?.stop();
      if (azuriteDir) await rm(azuriteDir, { recursive: true, force: true });
      await idp.close();
    },
  };
}

/**
 * Azure DevOps as the Aegis service identity, the one that may push to the protected main
 * (ADR 051): for tests that arrange what main holds ("someone merged this").
 */
export function mainWriterOf(t: TestApp): DevOpsApi {
  const writer = t.app.aegisDevOps;
  if (!writer) throw new Error('the app has no Aegis service identity (AEGIS_ENTRA_TENANT_ID)');
  return writer;
}
