// The runner runs the pipeline tasks for the catalogue's pipelines (ADR 023): a capture writes a
// branch, a backup a tag on a commit not on main, a failing task fails the run with its message,
// and the run's log is served by the build logs API.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

import { DevOpsClient, type RepositoryRef } from '@aegis/connectors/devops';
import type { AppTables } from '@aegis/connectors/tables';
import {
  DEPLOY_PRESETS,
  isPartialCapture,
  isTenantPipelineFolder,
  newClientYaml,
  parseCaptureManifest,
  workloadFor,
} from '@aegis/domain';
import { MemoryTenant } from '@aegis/pipeline-tasks/testing';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';

import { plannedCaptures } from '../seed/capture-branches';
import { generateSampleConfigRepo } from '../seed/sample-config';
import { CONFIG_REPOSITORY_NAME, SAMPLE_PROJECTS } from '../seed/seed-devops';

import type { DevOpsEmulator } from './server';

import { startDevOpsEmulator } from './index';

const PROJECT = SAMPLE_PROJECTS.tenantManagement;
const REPO: RepositoryRef = { project: PROJECT, repository: CONFIG_REPOSITORY_NAME };
const ROOT = 'Clients/ABC/M365Config/Resources';

let dataDir: string;
let emulator: DevOpsEmulator;
let devops: DevOpsClient;
let tenant: MemoryTenant;
const tables = new Set<string>(['ABCWorkstationApps', 'GENWorkstationApps']);

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'aegis-tasks-'));
  emulator = await startDevOpsEmulator({
    dataDir,
    port: 0,
    pipelineDurationInMs: 0,
    verifyToken: (token) => Promise.resolve(token === 'good-token'),
    taskRuntime: {
      tenant: () => Promise.resolve(tenant),
      tables: {
        listTables: () => Promise.resolve([...tables].sort()),
        createTable: (name: string) => {
          tables.add(name);
          return Promise.resolve({ status: 201, message: `Table ${name} created` });
        },
      } as unknown as AppTables,
    },
  });
  devops = new DevOpsClient({
    organizationUrl: emulator.url,
    getToken: () => Promise.resolve('good-token'),
  });
}, 60_000);

afterAll(async () => {
  await emulator?.close();
  await rm(dataDir, { recursive: true, force: true });
});

beforeEach(() => {
  // ABC's tenant: its git copy, then drift: one policy changed, one removed, one added.
  tenant = MemoryTenant.fromFiles(generateSampleConfigRepo(), ROOT);
  const ca = tenant.list(workloadFor('ConditionalAccess', 'Policy')!);
  const changed = ca[0]!;
  changed['state'] = 'disabled';
  ca.splice(1, 1);
  ca.push({ id: 'a1b2', displayName: 'CA900-Local-Exception', state: 'enabled' });
});

async function run(
  pipelineId: number,
  templateParameters: Record<string, string>,
  variables?: Record<string, { value: string; isSecret?: boolean }>,
) {
  const started = await devops.runPipeline(PROJECT, pipelineId, {
    templateParameters,
    ...(variables ? { variables } : {}),
  });
  await emulator.runner.waitForIdle();
  const finished = await devops.getRun(PROJECT, pipelineId, started.id);
  const logResponse = await fetch(
    `${emulator.url}/${encodeURIComponent(PROJECT)}/_apis/build/builds/${started.id}/logs/1?api-version=7.1`,
    { headers: { authorization: 'Bearer good-token' } },
  );
  return { id: started.id, run: finished, log: await logResponse.text() };
}

describe('capture (216)', () => {
  it('commits the drift to client-ABC-capture-{runId} off main with its metadata, in one push', async () => {
    const pushes = emulator.faults.add({
      kind: 'latency',
      latencyInMs: 0,
      method: 'POST',
      pathPattern: '/_apis/git/repositories/[^/]+/pushes$',
    });
    const { id, run: finished, log } = await run(216, { ClientCode: 'ABC' });
    const pushCount = emulator.faults.list().find((f) => f.id === pushes)?.hits;
    emulator.faults.clear();
    expect(finished?.result).toBe('succeeded');
    expect(pushCount).toBe(1);
    const diff = await devops.getCommitDiff(
      REPO,
      { branch: 'main' },
      { branch: `client-ABC-capture-${id}` },
    );
    const files = diff.changes.filter((c) => !c.isFolder);
    // the drift, the metadata and the manifest (ADR 050)
    expect(files.map((c) => c.changeType).sort()).toEqual(['add', 'add', 'add', 'delete', 'edit']);
    expect(files.some((c) => c.path.endsWith('/CA900-Local-Exception.json'))).toBe(true);
    expect(files.some((c) => c.path.endsWith('/Clients/ABC/.capture-manifest.json'))).toBe(true);
    const metadata = await devops.getFile(REPO, 'Clients/ABC/.capture-metadata.json', {
      version: { branch: `client-ABC-capture-${id}` },
    });
    expect(JSON.parse(metadata!.content)).toMatchObject({
      changeCount: 3,
      criticalCount: expect.any(Number) as unknown,
      baselineVersion: '1.0.0',
    });
    expect(log).toMatch(/Pushed 3 changes/);
  });

  it('numbers new runs after the seeded captures, so a capture never finds its branch taken', async () => {
    const { id, run: finished } = await run(216, { ClientCode: 'ABC' });
    expect(finished?.result).toBe('succeeded');
    expect(id).toBeGreaterThan(Math.max(...plannedCaptures().map((c) => c.runId)));
  });

  it('fails saying so when its branch already exists (a re-run keeps the run id)', async () => {
    const before = await run(212, { ClientCode: 'ABC', ManualRun: 'true' });
    const main = (await devops.listRefs(REPO, 'heads/main')).find(
      (r) => r.name === 'refs/heads/main',
    )!;
    const taken = `client-ABC-capture-${before.id + 1}`;
    // what the first attempt of the run pushed
    await devops.push(REPO, {
      branch: taken,
      oldObjectId: main.objectId,
      commits: [
        {
          comment: 'Capture of ABC (first attempt)',
          changes: [{ changeType: 'add', path: 'Clients/ABC/first-attempt.txt', content: 'x\n' }],
        },
      ],
    });
    const { id, run: finished, log } = await run(216, { ClientCode: 'ABC' });
    expect(id).toBe(before.id + 1);
    expect(finished?.result).toBe('failed');
    expect(log).toContain(
      `##[error]${taken} already exists: this run pushed a capture before. Start a new capture instead of re-running this one.`,
    );
  });

  it('drops excluded properties and folders', async () => {
    const { id, run: finished } = await run(216, {
      ClientCode: 'ABC',
      ExcludedProperties: JSON.stringify(['createdDateTime']),
      ExcludedPaths: JSON.stringify(['/Exchange']),
    });
    expect(finished?.result).toBe('succeeded');
    const file = await devops.getFile(
      REPO,
      `${ROOT}/ConditionalAccess/Policy/CA900-Local-Exception.json`,
      { version: { branch: `client-ABC-capture-${id}` } },
    );
    expect(file).toBeDefined();
    const diff = await devops.getCommitDiff(
      REPO,
      { branch: 'main' },
      { branch: `client-ABC-capture-${id}` },
    );
    expect(diff.changes.some((c) => c.path.includes('/Exchange/'))).toBe(false);
    const edited = diff.changes.find((c) => c.changeType === 'edit' && c.path.includes('/Policy/'));
    const content = await devops.getFile(REPO, edited!.path, {
      version: { branch: `client-ABC-capture-${id}` },
    });
    expect(content!.content).not.toContain('createdDateTime');
  });

  it('commits what it read when one workload is not permitted, with a manifest saying so', async () => {
    tenant.notRead.set('Exchange/TransportRule', {
      status: 'notPermitted',
      permission: 'Exchange.ManageAsApp and the Exchange Administrator role',
    });
    // the tenant's rules changed, but they were not read: nothing of them may look changed
    tenant.list(workloadFor('Exchange', 'TransportRule')!).length = 0;
    const { id, run: finished, log } = await run(216, { ClientCode: 'ABC' });
    expect(finished?.result).toBe('succeeded');
    expect(log).toContain(
      '##[warning]Exchange/TransportRule: Not captured: the Aegis app lacks Exchange.ManageAsApp and the Exchange Administrator role',
    );
    const branch = `client-ABC-capture-${id}`;
    const diff = await devops.getCommitDiff(REPO, { branch: 'main' }, { branch });
    expect(diff.changes.some((c) => c.path.includes('/Exchange/TransportRule/'))).toBe(false);
    expect(diff.changes.some((c) => c.path.includes('/ConditionalAccess/Policy/'))).toBe(true);
    const manifest = await devops.getFile(REPO, 'Clients/ABC/.capture-manifest.json', {
      version: { branch },
    });
    const parsed = parseCaptureManifest(manifest?.content);
    expect(parsed?.workloads.find((w) => w.workload === 'Exchange/TransportRule')).toEqual({
      workload: 'Exchange/TransportRule',
      status: 'notPermitted',
      permission: 'Exchange.ManageAsApp and the Exchange Administrator role',
    });
    expect(isPartialCapture(parsed)).toBe(true);
  });

  it('fails the run with the task message when the tenant cannot be read', async () => {
    tenant.failReads = 'Graph answered 503 ServiceUnavailable';
    const { run: finished, log } = await run(216, { ClientCode: 'ABC' });
    expect(finished?.result).toBe('failed');
    expect(log).toMatch(
      /##\[error\]No workload of the tenant could be read\. .*Graph answered 503 ServiceUnavailable/,
    );
  });

  it('fails on a bad client code, naming the field', async () => {
    const { run: finished, log } = await run(216, { ClientCode: 'abc' });
    expect(finished?.result).toBe('failed');
    expect(log).toMatch(/ClientCode must be exactly 3 uppercase letters/);
  });
});

describe('backup (212)', () => {
  it('tags a commit that is not on main and holds the live configuration', async () => {
    const { run: finished, log } = await run(212, { ClientCode: 'ABC', ManualRun: 'true' });
    expect(finished?.result).toBe('succeeded');
    const tag = /Created tag refs\/tags\/(backup\/ABC\/\d{8}_\d{6})/.exec(log)?.[1];
    expect(tag).toBeDefined();
    const file = await devops.getFile(
      REPO,
      `${ROOT}/ConditionalAccess/Policy/CA900-Local-Exception.json`,
      { version: { tag: tag! } },
    );
    expect(file).toBeDefined();
    const onMain = await devops.getFile(
      REPO,
      `${ROOT}/ConditionalAccess/Policy/CA900-Local-Exception.json`,
      { version: { branch: 'main' } },
    );
    expect(onMain).toBeUndefined();
    const refs = await devops.listRefs(REPO, 'heads/aegis/');
    expect(refs).toEqual([]);
  });

  it('names scheduled backups scheduled_', async () => {
    const { log } = await run(212, { ClientCode: 'ABC' });
    expect(log).toMatch(/refs\/tags\/backup\/ABC\/scheduled_\d{8}_\d{6}/);
  });
});

describe('run logs API', () => {
  it('lists one log per run with its line count', async () => {
    const { id } = await run(212, { ClientCode: 'ABC', ManualRun: 'true' });
    const response = await fetch(
      `${emulator.url}/${encodeURIComponent(PROJECT)}/_apis/build/builds/${id}/logs?api-version=7.1`,
      { headers: { authorization: 'Bearer good-token' } },
    );
    const body = (await response.json()) as {
      count: number;
      value: { id: number; lineCount: number }[];
    };
    expect(body.count).toBe(1);
    expect(body.value[0]!.lineCount).toBeGreaterThan(2);
    const pipelinesLogs = await fetch(
      `${emulator.url}/${encodeURIComponent(PROJECT)}/_apis/pipelines/212/runs/${id}/logs?api-version=7.1`,
      { headers: { authorization: 'Bearer good-token' } },
    );
    expect(((await pipelinesLogs.json()) as { logs: unknown[] }).logs).toHaveLength(1);
  });

  it('a client app deployment, whose script the emulator does not run, logs what it was given', async () => {
    const project = SAMPLE_PROJECTS.appDeployments;
    const pipeline = (await devops.listPipelines(project)).find((p) =>
      p.name.endsWith(' - Workstation App Deployment'),
    )!;
    const started = await devops.runPipeline(project, pipeline.id, {
      templateParameters: { AppList: '["Google Chrome"]' },
      variables: { DeployToken: { value: 'not-to-be-logged', isSecret: true } },
    });
    await emulator.runner.waitForIdle();
    const response = await fetch(
      `${emulator.url}/${encodeURIComponent(project)}/_apis/build/builds/${started.id}/logs/1?api-version=7.1`,
      { headers: { authorization: 'Bearer good-token' } },
    );
    const log = await response.text();
    expect(log).toContain(`##[section]Starting: ${pipeline.name}`);
    expect(log).toContain('AppList: ["Google Chrome"]');
    expect(log).toContain('DeployToken: ***');
    expect(log).not.toContain('not-to-be-logged');
    expect(log).toContain("does not run this pipeline's script steps");
    expect(log).toContain(`##[section]Finishing: ${pipeline.name}`);
  });
});

const DEPLOY = 230;
const REMOVE = 231;
const named = (kind: [string, string], name: string) =>
  tenant.list(workloadFor(...kind)!).find((o) => o['displayName'] === name || o['Name'] === name);

describe('deploy (Deploy Baseline Tenant Configuration)', () => {
  it('backs up first, then creates what is missing and leaves the rest', async () => {
    const compliance = workloadFor('Intune', 'DeviceCompliancePolicy')!;
    tenant.objects.set(compliance, []);
    const { run: finished, log } = await run(DEPLOY, {
      ClientCode: 'ABC',
      Components: JSON.stringify(['Device Compliance', 'Anti Phishing']),
    });
    expect(finished?.result).toBe('succeeded');
    expect(log).toMatch(/Rollback point: backup tag backup\/ABC\/\d{8}_\d{6}/);
    expect(tenant.list(compliance).length).toBeGreaterThan(0);
    expect(
      named(['Intune', 'DeviceCompliancePolicy'], 'Baseline - Windows - System Security'),
    ).toBeDefined();
    expect(log).toMatch(/created Intune\/DeviceCompliancePolicy\//);
  });

  it('stops naming the group the tenant lacks, and writes nothing pointing at baseline ids', async () => {
    const groups = workloadFor('AzureAD', 'Group')!;
    tenant.objects.set(
      groups,
      tenant.list(groups).filter((g) => g['displayName'] !== 'SG-BreakGlass-Exclude'),
    );
    const policies = workloadFor('ConditionalAccess', 'Policy')!;
    tenant.objects.set(policies, []);
    const { run: finished, log } = await run(DEPLOY, {
      ClientCode: 'ABC',
      Components: JSON.stringify(['Conditional Access Policies']),
    });
    expect(finished?.result).toBe('failed');
    expect(log).toMatch(/the tenant has no group 'SG-BreakGlass-Exclude'/);
    expect(tenant.list(policies)).toEqual([]);
  });

  it("maps groups to the tenant's own once 'Required Entra ID Groups' creates them", async () => {
    const groups = workloadFor('AzureAD', 'Group')!;
    tenant.objects.set(groups, []);
    const policies = workloadFor('ConditionalAccess', 'Policy')!;
    tenant.objects.set(policies, []);
    const { run: finished, log } = await run(DEPLOY, {
      ClientCode: 'ABC',
      // in any order: what others reference is deployed first
      Components: JSON.stringify([
        'Conditional Access Policies',
        'Named Locations',
        'Required Entra ID Groups',
      ]),
    });
    expect({ result: finished?.result, log }).toMatchObject({ result: 'succeeded' });
    const breakGlass = named(['AzureAD', 'Group'], 'SG-BreakGlass-Exclude');
    expect(breakGlass).toBeDefined();
    const excluded = tenant
      .list(policies)
      .flatMap(
        (p) =>
          (p['conditions'] as { users?: { excludeGroups?: string[] } })?.users?.excludeGroups ?? [],
      );
    expect(excluded.length).toBeGreaterThan(0);
    expect(new Set(excluded)).toEqual(new Set([breakGlass!['id']]));
  });
});

describe("deploy maps the baseline tenant's domain to the client's", () => {
  it("writes the client's domain where a baseline setting names the baseline's", async () => {
    const path = 'M365Config/Resources/Exchange/TransportRule/External Sender Warning.json';
    const main = (await devops.listRefs(REPO, 'heads/main')).find(
      (r) => r.name === 'refs/heads/main',
    );
    const current = await devops.getFile(REPO, path, { version: { branch: 'main' } });
    const rule = JSON.parse(current!.content) as Record<string, unknown>;
    rule['ExceptIfSenderDomainIs'] = ['aegismsp.onmicrosoft.com'];
    await devops.push(REPO, {
      branch: 'main',
      oldObjectId: main!.objectId,
      commits: [
        {
          comment: 'Baseline: the external warning skips our own domain',
          changes: [{ changeType: 'edit', path, content: `${JSON.stringify(rule, null, 2)}\n` }],
        },
      ],
    });
    tenant.objects.set(workloadFor('Exchange', 'TransportRule')!, []);
    const { run: finished, log } = await run(DEPLOY, {
      ClientCode: 'ABC',
      Components: JSON.stringify(['Transport Rules']),
    });
    expect({ result: finished?.result, log }).toMatchObject({ result: 'succeeded' });
    const created = named(['Exchange', 'TransportRule'], 'External Sender Warning');
    expect(created?.['ExceptIfSenderDomainIs']).toEqual([tenant.domain]);
  });
});

describe('off-board (Remove Baseline Tenant Configuration)', () => {
  it('removes the component from the tenant and logs it', async () => {
    const rules = workloadFor('Exchange', 'TransportRule')!;
    expect(tenant.list(rules).length).toBeGreaterThan(0);
    const { run: finished, log } = await run(REMOVE, {
      ClientCode: 'ABC',
      Components: JSON.stringify(['Remove Transport Rules']),
    });
    expect(finished?.result).toBe('succeeded');
    expect(log).toMatch(/removed Exchange\/TransportRule\//);
    const baselineNames = [...generateSampleConfigRepo().keys()]
      .filter((p) => p.startsWith('M365Config/Resources/Exchange/TransportRule/'))
      .map((p) => p.slice(p.lastIndexOf('/') + 1, -5));
    expect(tenant.list(rules).filter((r) => baselineNames.includes(String(r['Name'])))).toEqual([]);
  });
});

/** What onboarding may change: main, the pipelines and the tables (a re-run changes none of them). */
async function devOpsState() {
  const [main] = await devops.listRefs(REPO, 'heads/main');
  const pipelines = await devops.listPipelines(PROJECT);
  return {
    main: main?.objectId,
    pipelines: pipelines.map((p) => `${p.folder}\\${p.name}`).sort(),
    tables: [...tables].sort(),
  };
}

describe('onboarding (178, legacy 75) and app-deploy onboarding (191, legacy 55)', () => {
  it('creates the client folder with a first capture, its YAML, app pipeline and tenant pipeline; a re-run changes nothing', async () => {
    const first = await run(178, { ClientCode: 'TSP', Domain: 'tailspintoys.com' });
    expect({ result: first.run?.result, log: first.log }).toMatchObject({ result: 'succeeded' });
    const folder = await devops.listItems(REPO, 'Clients/TSP/M365Config/Resources', {
      version: { branch: 'main' },
      recursion: 'full',
    });
    expect(folder.filter((i) => i.gitObjectType === 'blob').length).toBeGreaterThan(10);
    // the same YAML as the sample clients', which the app list and schedule screens rewrite
    expect((await devops.getFile(REPO, 'Client_Yaml_Files/TSP-azure-pipelines.yml'))?.content).toBe(
      newClientYaml('TSP'),
    );
    const pipelines = (await devops.listPipelines(PROJECT)).map((p) => `${p.folder}\\${p.name}`);
    // the app pipeline in the folder /ViewAppList reads the YAML by; the tenant's under Tenants
    expect(pipelines).toContain('\\TSP\\TSP - Workstation App Deployment');
    expect(pipelines).toContain('\\Tenants\\TSP\\TSP Tenant Configuration');
    const before = await devOpsState();
    const again = await run(178, { ClientCode: 'TSP', Domain: 'tailspintoys.com' });
    expect(again.run?.result).toBe('succeeded');
    expect(again.log).toMatch(/TSP is already onboarded: nothing changed\./);
    expect(await devOpsState()).toEqual(before);
  });

  it('makes a newly onboarded tenant a deploy target: Essential Security deploys to it', async () => {
    const onboarded = await run(178, { ClientCode: 'NEW', Domain: 'new-tenant.example' });
    expect({ result: onboarded.run?.result, log: onboarded.log }).toMatchObject({
      result: 'succeeded',
    });
    const tenantPipeline = (await devops.listPipelines(PROJECT)).find(
      (p) => isTenantPipelineFolder(p.folder) && p.folder.endsWith('\\NEW'),
    );
    expect(tenantPipeline?.name).toBe('NEW Tenant Configuration');
    const deployed = await run(DEPLOY, {
      ClientCode: 'NEW',
      Components: JSON.stringify(DEPLOY_PRESETS['Essential Security']),
    });
    expect({ result: deployed.run?.result, log: deployed.log }).toMatchObject({
      result: 'succeeded',
    });
    expect(deployed.log).toMatch(/Rollback point: backup tag backup\/NEW\/\d{8}_\d{6}/);
  });

  it('changes nothing for a sample client onboarded long ago, whose app pipeline is in another project', async () => {
    const before = await devOpsState();
    const again = await run(178, { ClientCode: 'ABC', Domain: 'abcaccounting.com' });
    expect(again.log).toMatch(
      /Pipeline 'ABC - Workstation App Deployment' already exists in \\ABC \(Client App Deployments\)/,
    );
    expect(again.log).toMatch(/ABC is already onboarded: nothing changed\./);
    expect(await devOpsState()).toEqual(before);
  });

  it('legacy onboarding (75) does the same from its variables, the credentials secret', async () => {
    const password = 'Pw-75-d41c-never-logged';
    const first = await run(
      75,
      {},
      {
        ClientCode: { value: 'LGY' },
        Domain: { value: 'legacy.example' },
        subscriptionForLogin: { value: 'Options IT' },
        TenantAdminUserName: { value: 'admin@legacy.example', isSecret: true },
        TenantAdminUserPW: { value: password, isSecret: true },
      },
    );
    expect({ result: first.run?.result, log: first.log }).toMatchObject({ result: 'succeeded' });
    expect(first.log).toMatch(/Onboarded LGY: created Clients\/LGY with a first capture/);
    expect(first.log).not.toContain(password);
    expect(await devops.getFile(REPO, 'Client_Yaml_Files/LGY-azure-pipelines.yml')).toBeDefined();
  });

  it('app-deploy onboarding (191) creates the missing table, YAML and app pipeline once, nothing under Tenants', async () => {
    expect(tables.has('APDWorkstationApps')).toBe(false);
    const first = await run(191, { ClientCode: 'APD', Domain: 'appdeploy.example' });
    expect({ result: first.run?.result, log: first.log }).toMatchObject({ result: 'succeeded' });
    expect(tables.has('APDWorkstationApps')).toBe(true);
    expect(await devops.getFile(REPO, 'Client_Yaml_Files/APD-azure-pipelines.yml')).toBeDefined();
    const pipelines = await devops.listPipelines(PROJECT);
    expect(pipelines.map((p) => `${p.folder}\\${p.name}`)).toContain(
      '\\APD\\APD - Workstation App Deployment',
    );
    // not a deploy target: Baseline Deployment lists Tenants, and APD has no configuration
    expect(pipelines.some((p) => isTenantPipelineFolder(p.folder) && p.name.includes('APD'))).toBe(
      false,
    );
    const before = await devOpsState();
    const again = await run(191, { ClientCode: 'APD', Domain: 'appdeploy.example' });
    expect(again.log).toMatch(/APD is already onboarded: nothing changed\./);
    expect(await devOpsState()).toEqual(before);
  });

  it('legacy app-deploy onboarding (55) keeps an existing table and never logs the password', async () => {
    tables.add('OLDWorkstationApps');
    const password = 'Pw-55-9e7a-never-logged';
    const variables = {
      ClientCode: { value: 'OLD' },
      Domain: { value: 'old.example' },
      TenantAdminUserName: { value: 'admin@old.example', isSecret: true },
      TenantAdminUserPW: { value: password, isSecret: true },
    };
    const first = await run(55, {}, variables);
    expect({ result: first.run?.result, log: first.log }).toMatchObject({ result: 'succeeded' });
    expect(first.log).toMatch(/Table OLDWorkstationApps already exists/);
    expect((await devops.listPipelines(PROJECT)).map((p) => p.folder)).toContain('\\OLD');
    const before = await devOpsState();
    const again = await run(55, {}, variables);
    expect(again.log).toMatch(/OLD is already onboarded: nothing changed\./);
    expect(await devOpsState()).toEqual(before);
    expect(first.log + again.log).not.toContain(password);
    // the task had the password; the emulator's stored state (its database) never did
    const stored = emulator.state.data.runs.find((r) => r.id === first.id);
    expect(stored?.variables['TenantAdminUserPW']).toEqual({ value: '', isSecret: true });
    expect(stored?.variables['Domain']).toEqual({ value: 'old.example', isSecret: false });
    expect(await readFile(path.join(dataDir, 'devops-state.json'), 'utf8')).not.toContain(password);
  });

  it("gives a run's task its secret variables, though the stored run has none", async () => {
    let seen: Readonly<Record<string, string>> = {};
    emulator.runner.register(55, ({ parameters }) => {
      seen = parameters;
      return Promise.resolve();
    });
    try {
      await run(55, {}, { TenantAdminUserPW: { value: 'Pw-task-only', isSecret: true } });
    } finally {
      emulator.runner.unregister(55);
    }
    expect(seen['TenantAdminUserPW']).toBe('Pw-task-only');
  });
});
