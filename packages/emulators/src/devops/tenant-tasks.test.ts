// The pipeline tasks through the emulator runner against the tenant emulator, as `npm start` wires
// them: the Aegis app's client-credentials token from the tenant's authority, Graph in $batch, the
// admin command endpoint and ARM. Covers a failing Graph call, throttling with Retry-After and a
// tenant with Multi Admin Approval.
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

import { DevOpsClient, type RepositoryRef } from '@aegis/connectors/devops';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

import { startIdentityProvider, type IdentityProvider } from '../identity/identity-provider';
import { aegisAppRegistration, tenantWorldDirectory } from '../identity/tenant-world-directory';
import { CONFIG_REPOSITORY_NAME, SAMPLE_PROJECTS } from '../seed/seed-devops';
import { findSimulatedTenant } from '../tenants/registry';
import {
  TENANT_EMULATOR_AUDIENCES,
  buildTenantEmulator,
  jwksTenantTokenVerifier,
  listenTenantEmulator,
  type TenantEmulator,
} from '../tenants/server';
import { TenantWorld } from '../tenants/world';

import type { DevOpsEmulator } from './server';
import { tenantTaskRuntime } from './tenant-task-runtime';

import { startDevOpsEmulator } from './index';

const PROJECT = SAMPLE_PROJECTS.tenantManagement;
const REPO: RepositoryRef = { project: PROJECT, repository: CONFIG_REPOSITORY_NAME };
const DEPLOY = 230;

let dataDir: string;
let idp: IdentityProvider;
let tenants: TenantEmulator;
let emulator: DevOpsEmulator;
let devops: DevOpsClient;
const world = new TenantWorld({ propagationDelayInMs: 0 });

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'aegis-tenant-tasks-'));
  const app = aegisAppRegistration('api://aegis-test');
  idp = await startIdentityProvider({
    port: 0,
    audience: 'api://aegis-test',
    allowedOrigins: [],
    directory: tenantWorldDirectory(world),
    applications: [app],
  });
  tenants = await listenTenantEmulator(
    buildTenantEmulator({
      world,
      verifyToken: jwksTenantTokenVerifier({
        jwksUrl: idp.jwksUrl,
        audiences: TENANT_EMULATOR_AUDIENCES,
      }),
    }),
    { port: 0 },
  );
  emulator = await startDevOpsEmulator({
    dataDir,
    port: 0,
    pipelineDurationInMs: 0,
    verifyToken: async (token) => token === 'good-token',
    taskRuntime: tenantTaskRuntime({
      identityProviderUrl: idp.url,
      clientId: app.clientId,
      clientSecret: app.clientSecret,
      tenantEmulatorUrl: () => tenants.url,
    }),
  });
  devops = new DevOpsClient({ organizationUrl: emulator.url, getToken: async () => 'good-token' });
}, 60_000);

afterAll(async () => {
  await emulator?.close();
  await tenants?.close();
  await idp?.close();
  await rm(dataDir, { recursive: true, force: true });
});

afterEach(async () => {
  tenants.faults.clear();
  world.resetScenarios();
});

async function run(pipelineId: number, templateParameters: Record<string, string>) {
  const started = await devops.runPipeline(PROJECT, pipelineId, { templateParameters });
  await emulator.runner.waitForIdle();
  const finished = await devops.getRun(PROJECT, pipelineId, started.id);
  const log = (await devops.getRunLog(PROJECT, started.id)) ?? [];
  return { id: started.id, result: finished?.result, log: log.join('\n') };
}

describe('capture against the tenant emulator', () => {
  it("finds the tenant's drift: its branch differs from main by the drifted policies", async () => {
    const { id, result, log } = await run(216, { ClientCode: 'ABC' });
    expect({ result, log }).toMatchObject({ result: 'succeeded' });
    const diff = await devops.getCommitDiff(
      REPO,
      { branch: 'main' },
      { branch: `client-ABC-capture-${id}` },
    );
    const policies = diff.changes.filter((c) => !c.isFolder && c.path.includes('/M365Config/'));
    // the tenant emulator's drift: 2 changed, 1 added, 1 removed
    expect(policies.map((c) => c.changeType).sort()).toEqual(['add', 'delete', 'edit', 'edit']);
    expect(log).toMatch(/Read \d+ policies from the tenant in \d+ requests/);
  });

  it('fails the run with Graph’s message when a Graph call fails', async () => {
    tenants.faults.add({
      kind: 'error',
      pathPattern: '^/beta/\\$batch',
      statusCode: 500,
      message: 'Graph is having a bad day',
    });
    const { result, log } = await run(216, { ClientCode: 'ABC' });
    expect(result).toBe('failed');
    expect(log).toMatch(/##\[error\].*Graph is having a bad day/);
  });

  it('waits out throttling (429 with Retry-After) and completes', async () => {
    tenants.faults.add({
      kind: 'throttle',
      pathPattern: '^/beta/\\$batch',
      retryAfterInSeconds: 1,
      times: 2,
    });
    const { result, log } = await run(216, { ClientCode: 'ABC' });
    expect({ result, log }).toMatchObject({ result: 'succeeded' });
    // both throttled answers were taken, and waited out: the capture still completed
    expect(tenants.faults.list()).toEqual([]);
  });
});

describe('deploy against the tenant emulator', () => {
  it('creates the missing Intune policies, and with Multi Admin Approval reports them pending', async () => {
    const tenant = findSimulatedTenant('FAB')!;
    // FAB's live tenant lacks 'Baseline - macOS - System Security' (its drift removed it).
    world.setScenarios(tenant.tenantId, { multiAdminApproval: true });
    const pending = await run(DEPLOY, {
      ClientCode: 'FAB',
      Components: JSON.stringify(['Device Compliance']),
    });
    expect({ result: pending.result, log: pending.log }).toMatchObject({ result: 'succeeded' });
    expect(pending.log).toMatch(/Rollback point: backup tag backup\/FAB\//);
    expect(pending.log).toMatch(
      /##\[warning\]Pending approval: 'Baseline - macOS - System Security'/,
    );
    expect(pending.log).toMatch(/waiting for approval/);
    const approvals = await fetch(`${tenants.url}/_emulator/tenants/FAB/approvals`);
    const body = (await approvals.json()) as { value: { justification?: string }[] };
    expect(body.value.length).toBeGreaterThan(0);
    expect(JSON.stringify(body.value)).toMatch(/Aegis deploy run \d+/);

    world.setScenarios(tenant.tenantId, { multiAdminApproval: false });
    const applied = await run(DEPLOY, {
      ClientCode: 'FAB',
      Components: JSON.stringify(['Device Compliance']),
    });
    expect({ result: applied.result, log: applied.log }).toMatchObject({ result: 'succeeded' });
    expect(applied.log).toMatch(
      /created Intune\/DeviceCompliancePolicy\/Baseline - macOS - System Security/,
    );
    // the next capture finds it in the tenant: no longer a deletion against FAB's copy
    const capture = await run(216, { ClientCode: 'FAB' });
    const diff = await devops.getCommitDiff(
      REPO,
      { branch: 'main' },
      { branch: `client-FAB-capture-${capture.id}` },
    );
    expect(
      diff.changes.some(
        (c) => c.changeType === 'delete' && c.path.includes('Baseline - macOS - System Security'),
      ),
    ).toBe(false);
  });
});

describe('off-board against the tenant emulator', () => {
  it("'Remove Transport Rules' removes them from the next capture", async () => {
    const { result, log } = await run(231, {
      ClientCode: 'CON',
      Components: JSON.stringify(['Remove Transport Rules']),
    });
    expect({ result, log }).toMatchObject({ result: 'succeeded' });
    expect(log).toMatch(/removed Exchange\/TransportRule\//);
    const capture = await run(216, { ClientCode: 'CON' });
    const diff = await devops.getCommitDiff(
      REPO,
      { branch: 'main' },
      { branch: `client-CON-capture-${capture.id}` },
    );
    expect(
      diff.changes.some((c) => c.changeType === 'delete' && c.path.includes('/TransportRule/')),
    ).toBe(true);
  });
});
