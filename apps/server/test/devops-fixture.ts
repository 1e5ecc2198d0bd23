import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';

import {
  buildDevOpsServer,
  jwksTokenVerifier,
  listenDevOpsEmulator,
  SAMPLE_PROJECTS,
  seedDevOps,
  startIdentityProvider,
  type DevOpsEmulator,
  type IdentityProvider,
} from '@aegis/emulators';

import { build, TEST_AUDIENCE, type TestApp } from './helper';

export interface DevOpsFixture {
  readonly emulator: DevOpsEmulator;
  close(): Promise<void>;
}

/**
 * A seeded DevOps emulator in a temporary folder that accepts only tokens of `idp`,
 * as the embedded default does.
 */
export async function startSeededDevOps(
  idp: IdentityProvider,
  options: { pipelineDurationInMs?: number } = {},
): Promise<DevOpsFixture> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'aegis-devops-'));
  await seedDevOps(dataDir);
  const emulator = await listenDevOpsEmulator(
    buildDevOpsServer({
      dataDir,
      pipelineDurationInMs: options.pipelineDurationInMs ?? 300,
      verifyToken: jwksTokenVerifier(idp),
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

export interface AppWithDevOps {
  readonly t: TestApp;
  readonly devops: DevOpsFixture;
  close(): Promise<void>;
}

/** The app wired as `npm start` wires it: identity provider, seeded DevOps emulator, sample project. */
export async function buildWithSeededDevOps(
  options: {
    pipelineDurationInMs?: number;
    /** ports to inject instead of the adapters built from configuration (e.g. AppTables) */
    ports?: Parameters<typeof build>[2];
  } = {},
): Promise<AppWithDevOps> {
  const idp = await startIdentityProvider({ port: 0, audience: TEST_AUDIENCE, allowedOrigins: [] });
  const devops = await startSeededDevOps(idp, options);
  const t = await build(
    {
      AEGIS_DEVOPS_ORG_URL: devops.emulator.url,
      AEGIS_DEVOPS_PROJECT: SAMPLE_PROJECTS.tenantManagement,
    },
    idp,
    options.ports,
  );
  return {
    t,
    devops,
    close: async () => {
      await t.close();
      await devops.close();
      await idp.close();
    },
  };
}
