import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';

import {
  buildDevOpsServer,
  jwksTokenVerifier,
  listenDevOpsEmulator,
  seedDevOps,
  type DevOpsEmulator,
  type IdentityProvider,
} from '@aegis/emulators';

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
