// The pipeline tasks through the DevOps emulator's runner against the tenant emulator, wired as
// `npm start` wires them (the Aegis app's client-credentials token from the tenant's authority,
// Graph, the admin command endpoint and ARM), on free ports: for tests and benchmarks.
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

import { DevOpsClient } from '@aegis/connectors/devops';

import { startIdentityProvider, type IdentityProvider } from '../identity/identity-provider';
import { aegisAppRegistration, tenantWorldDirectory } from '../identity/tenant-world-directory';
import { SAMPLE_PROJECTS } from '../seed/seed-devops';
import {
  TENANT_EMULATOR_AUDIENCES,
  buildTenantEmulator,
  jwksTenantTokenVerifier,
  listenTenantEmulator,
  type TenantEmulator,
} from '../tenants/server';
import type { TenantWorld } from '../tenants/world';

import type { DevOpsEmulator } from './server';
import { tenantTaskRuntime } from './tenant-task-runtime';

import { startDevOpsEmulator } from './index';

export const TENANT_MANAGEMENT_PROJECT = SAMPLE_PROJECTS.tenantManagement;
/** The one token this DevOps emulator accepts. */
export const TENANT_PIPELINES_TOKEN = 'good-token';

export interface TenantPipelines {
  readonly idp: IdentityProvider;
  /** the Aegis app registration the tasks use in client tenants */
  readonly app: { clientId: string; clientSecret: string };
  readonly tenants: TenantEmulator;
  readonly emulator: DevOpsEmulator;
  readonly devops: DevOpsClient;
  /** Starts a run, waits for the runner and answers its result and log. */
  run(
    pipelineId: number,
    templateParameters: Record<string, string>,
  ): Promise<{ id: number; result: string | undefined; log: string }>;
  close(): Promise<void>;
}

export interface TenantPipelinesOptions {
  /** Table storage for the tasks that use it (app-deploy onboarding, the drift check, the fleet rebuild) */
  tablesConnectionString?: string;
  /** Blob storage for customer reports' PDFs */
  blobsConnectionString?: string;
  /** the MSP's own tenant and the mailbox customer reports are sent from */
  mail?: { tenantId: string; sender: string };
}

export async function startTenantPipelines(
  world: TenantWorld,
  options: TenantPipelinesOptions = {},
): Promise<TenantPipelines> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'aegis-tenant-pipelines-'));
  const app = aegisAppRegistration('api://aegis-test');
  const idp = await startIdentityProvider({
    port: 0,
    audience: 'api://aegis-test',
    allowedOrigins: [],
    directory: tenantWorldDirectory(world),
    applications: [app],
    ...(options.mail ? { homeTenantId: options.mail.tenantId } : {}),
  });
  const tenants = await listenTenantEmulator(
    buildTenantEmulator({
      world,
      verifyToken: jwksTenantTokenVerifier({
        jwksUrl: idp.jwksUrl,
        audiences: TENANT_EMULATOR_AUDIENCES,
      }),
      ...(options.mail
        ? { msp: { tenantId: options.mail.tenantId, mailboxes: [options.mail.sender] } }
        : {}),
    }),
    { port: 0 },
  );
  const emulator = await startDevOpsEmulator({
    dataDir,
    port: 0,
    pipelineDurationInMs: 0,
    verifyToken: (token) => Promise.resolve(token === TENANT_PIPELINES_TOKEN),
    taskRuntime: tenantTaskRuntime({
      identityProviderUrl: idp.url,
      clientId: app.clientId,
      clientSecret: app.clientSecret,
      tenantEmulatorUrl: () => tenants.url,
      ...(options.tablesConnectionString
        ? { tablesConnectionString: options.tablesConnectionString }
        : {}),
      ...(options.blobsConnectionString
        ? { blobsConnectionString: options.blobsConnectionString }
        : {}),
      ...(options.mail ? { mail: options.mail } : {}),
    }),
  });
  const devops = new DevOpsClient({
    organizationUrl: emulator.url,
    getToken: () => Promise.resolve(TENANT_PIPELINES_TOKEN),
  });
  const project = TENANT_MANAGEMENT_PROJECT;
  return {
    idp,
    app: { clientId: app.clientId, clientSecret: app.clientSecret },
    tenants,
    emulator,
    devops,
    async run(pipelineId, templateParameters) {
      const started = await devops.runPipeline(project, pipelineId, { templateParameters });
      await emulator.runner.waitForIdle();
      const finished = await devops.getRun(project, pipelineId, started.id);
      const log = (await devops.getRunLog(project, started.id)) ?? [];
      return { id: started.id, result: finished?.result, log: log.join('\n') };
    },
    async close() {
      await emulator.close();
      await tenants.close();
      await idp.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
