import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';

import {
  buildDevOpsServer,
  listenDevOpsEmulator,
  seedDevOps,
  type DevOpsEmulator,
  type IdentityProvider,
} from '@aegis/emulators';
import { createRemoteJWKSet, jwtVerify } from 'jose';

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
  const keys = createRemoteJWKSet(new URL(idp.jwksUrl));
  const emulator = await listenDevOpsEmulator(
    buildDevOpsServer({
      dataDir,
      pipelineDurationInMs: options.pipelineDurationInMs ?? 300,
      verifyToken: async (token) => {
        await jwtVerify(token, keys, { issuer: idp.issuer, audience: idp.audience });
        return true;
      },
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
