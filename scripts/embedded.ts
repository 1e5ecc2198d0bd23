/**
 * The embedded default: the Aegis server wired to the emulators on this machine
 * (Azure DevOps emulator, local identity provider, Azurite). Used by `npm start` and e2e.
 */
import { mkdir, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';

import {
  buildDevOpsServer,
  jwksTokenVerifier,
  listenDevOpsEmulator,
  SAMPLE_PROJECTS,
  seedAppTables,
  seedDevOps,
  startAzurite,
  startIdentityProvider,
} from '@aegis/emulators';
import { buildApp, loadConfig } from '@aegis/server';

export interface EmbeddedOptions {
  readonly rootDir: string;
  readonly dataDir: string;
  readonly port: number;
  readonly host: string;
  /** Wipe the data folder and seed the sample data again. */
  readonly reset: boolean;
  readonly pipelineDurationInMs: number;
  readonly log: (line: string) => void;
}

export interface EmbeddedAegis {
  readonly url: string;
  close(): Promise<void>;
}

const AUDIENCE = 'api://aegis-embedded';
const SEEDED_MARKER = 'seeded.json';

async function exists(file: string): Promise<boolean> {
  return stat(file).then(
    () => true,
    () => false,
  );
}

/** Starts everything, seeding on first start; `close` stops it all in reverse order. */
export async function startEmbedded(options: EmbeddedOptions): Promise<EmbeddedAegis> {
  const { dataDir, port, host, log } = options;
  if (options.reset) {
    log(`Resetting ${dataDir} ...`);
    await rm(dataDir, { recursive: true, force: true });
  }
  await mkdir(dataDir, { recursive: true });
  const firstStart = !(await exists(path.join(dataDir, SEEDED_MARKER)));
  const stack: (() => Promise<void>)[] = [];
  const close = async (): Promise<void> => {
    for (const stop of stack.reverse()) await stop().catch(() => undefined);
  };

  try {
    const portalOrigins = [`http://localhost:${port}`, `http://127.0.0.1:${port}`];
    const idp = await startIdentityProvider({
      port: port + 101,
      host,
      audience: AUDIENCE,
      allowedOrigins: portalOrigins,
    });
    stack.push(() => idp.close());

    const azurite = await startAzurite({
      location: path.join(dataDir, 'azurite'),
      port: port + 103,
      host,
    });
    stack.push(() => azurite.stop());

    const devopsDir = path.join(dataDir, 'devops');
    if (firstStart) {
      log(
        'First start: seeding the sample data (configuration repository, pipelines, app tables) ...',
      );
      await seedDevOps(devopsDir);
      await seedAppTables(azurite.connectionString);
    }
    const devops = await listenDevOpsEmulator(
      buildDevOpsServer({
        dataDir: devopsDir,
        verifyToken: jwksTokenVerifier(idp),
        pipelineDurationInMs: options.pipelineDurationInMs,
      }),
      { port: port + 102, host },
    );
    stack.push(() => devops.close());
    if (firstStart) {
      await writeFile(
        path.join(dataDir, SEEDED_MARKER),
        JSON.stringify({ seededAt: new Date().toISOString() }),
      );
    }

    const config = loadConfig({
      ...process.env,
      AEGIS_HOST: host,
      AEGIS_PORT: String(port),
      AEGIS_WEB_DIST: path.join(options.rootDir, 'apps/web/dist'),
      AEGIS_AUTH_MODE: 'local',
      AEGIS_AUTH_JWKS_URL: idp.jwksUrl,
      AEGIS_AUTH_ISSUER: idp.issuer,
      AEGIS_AUTH_AUDIENCE: AUDIENCE,
      AEGIS_LOCAL_IDP_URL: idp.url,
      AEGIS_DEVOPS_ORG_URL: devops.url,
      AEGIS_DEVOPS_PROJECT: SAMPLE_PROJECTS.tenantManagement,
      AEGIS_TABLES_CONNECTION_STRING: azurite.connectionString,
    });
    const app = await buildApp({ config });
    stack.push(() => app.close());
    await app.listen({ host, port });
    return { url: `http://localhost:${port}`, close };
  } catch (error) {
    await close();
    throw error;
  }
}
