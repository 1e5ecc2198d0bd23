// The pipeline tasks through the emulator runner against the tenant emulator, as `npm start` wires
// them: the Aegis app's client-credentials token from the tenant's authority, Graph in $batch, the
// admin command endpoint and ARM. Covers a workload that cannot be read (scenario 'failingWorkload'),
// a failing Graph call, throttling with Retry-After, a
// tenant with Multi Admin Approval, and the command line an Azure Pipelines agent runs.
import type { FileChange, RepositoryRef } from '@aegis/connectors/devops';
import {
  captureManifestPath,
  comparePolicy,
  effectiveBaseline,
  isPartialCapture,
  parseCaptureManifest,
  parseTenantParameters,
  substituteParameters,
} from '@aegis/domain';
import {
  MICROSOFT_CLOUD_DOORS,
  defaultScopeOf,
  runCli,
  type TenantTokenProvider,
} from '@aegis/pipeline-tasks';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

import { CONFIG_REPOSITORY_NAME } from '../seed/seed-devops';
import { DEFAULT_SUBSCRIPTION_NAME, findSimulatedTenant } from '../tenants/registry';
import { TenantWorld } from '../tenants/world';

import {
  startTenantPipelines,
  TENANT_MANAGEMENT_PROJECT as PROJECT,
  type TenantPipelines,
} from './tenant-pipelines';

const REPO: RepositoryRef = { project: PROJECT, repository: CONFIG_REPOSITORY_NAME };
const DEPLOY = 230;

const world = new TenantWorld({ propagationDelayInMs: 0 });
let fixture: TenantPipelines;
let devops: TenantPipelines['devops'];
let tenants: TenantPipelines['tenants'];

beforeAll(async () => {
  fixture = await startTenantPipelines(world);
  ({ devops, tenants } = fixture);
}, 60_000);

afterAll(async () => {
  await fixture?.close();
});

afterEach(() => {
  tenants.faults.clear();
  world.resetScenarios();
});

const run = (pipelineId: number, templateParameters: Record<string, string>) =>
  fixture.run(pipelineId, templateParameters);

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

  it('a workload that cannot be read is not captured: its files stay, nothing of it is drift', async () => {
    const abc = findSimulatedTenant('ABC')!;
    // the client deleted an iOS restriction policy, but Intune device configurations cannot be read
    world.setScenarios(abc.tenantId, {
      failingWorkload: { workload: 'Intune/DeviceConfiguration', status: 500 },
    });
    const { id, result, log } = await run(216, { ClientCode: 'ABC' });
    expect({ result, log }).toMatchObject({ result: 'succeeded' });
    expect(log).toMatch(
      /##\[warning\]Intune\/DeviceConfiguration: Not captured: the service answered 500: /,
    );
    expect(log).toMatch(/##\[warning\]Partial capture: 1 workloads were not captured/);
    const branch = `client-ABC-capture-${id}`;
    const diff = await devops.getCommitDiff(REPO, { branch: 'main' }, { branch });
    const policies = diff.changes.filter((c) => !c.isFolder && c.path.includes('/M365Config/'));
    // the other drift is captured; the deletion, which was never read, is not
    expect(policies.map((c) => c.changeType).sort()).toEqual(['add', 'edit', 'edit']);
    expect(policies.some((c) => c.path.includes('/Intune/DeviceConfiguration/'))).toBe(false);
    const manifest = parseCaptureManifest(
      (await devops.getFile(REPO, captureManifestPath('ABC'), { version: { branch } }))?.content,
    );
    const entry = (key: string) => manifest?.workloads.find((w) => w.workload === key);
    expect(entry('Intune/DeviceConfiguration')).toMatchObject({
      status: 'failed',
      httpStatus: 500,
    });
    expect(entry('ConditionalAccess/Policy')).toMatchObject({ status: 'read' });
    expect(entry('Planner/PlannerConfiguration')).toEqual({
      workload: 'Planner/PlannerConfiguration',
      status: 'noPublicApi',
    });
    expect(isPartialCapture(manifest)).toBe(true);
  });

  it('a failed $batch takes out the Graph workloads it carried, with Graph’s message', async () => {
    tenants.faults.add({
      kind: 'error',
      pathPattern: '^/beta/\\$batch',
      statusCode: 500,
      message: 'Graph is having a bad day',
    });
    const { result, log } = await run(216, { ClientCode: 'ABC' });
    expect(result).toBe('succeeded');
    expect(log).toMatch(
      /##\[warning\]ConditionalAccess\/Policy: Not captured: the service answered 500: .*Graph is having a bad day/,
    );
    // Exchange is another service: still read
    expect(log).not.toMatch(/##\[warning\]Exchange\//);
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
  it('names the throttling when Graph keeps answering 429', async () => {
    tenants.faults.add({
      kind: 'throttle',
      pathPattern: '^/beta/\\$batch',
      retryAfterInSeconds: 0,
      times: 20,
    });
    const { result, log } = await run(216, { ClientCode: 'ABC' });
    expect(result).toBe('succeeded');
    expect(log).toMatch(
      /##\[warning\]ConditionalAccess\/Policy: Not captured: the service answered 429: /,
    );
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

describe('tenant parameters and layers (ADR 068)', () => {
  const GROUP_UNIFIED = 'M365Config/Resources/AzureAD/DirectorySetting/Group.Unified.json';
  type Setting = { displayName?: string; values?: { name: string; value: string }[] };
  const liveSetting = (code: string, name: string): Setting => {
    const objects = world
      .state(findSimulatedTenant(code)!.tenantId)
      .workloadObjects({ category: 'AzureAD', kind: 'DirectorySetting' });
    const setting = [...objects.values()].find((o) => o['displayName'] === name);
    if (!setting) throw new Error(`${code} has no ${name}`);
    return setting;
  };
  const valueOf = (setting: Setting, name: string) =>
    setting.values?.find((v) => v.name === name)?.value;
  const groupId = (code: string, displayName: string) =>
    world
      .state(findSimulatedTenant(code)!.tenantId)
      .objectsOfType('#microsoft.graph.group')
      .find((g) => g['displayName'] === displayName)?.['id'] as string | undefined;
  const fileAt = async (path: string, branch: string) =>
    JSON.parse(
      (await devops.getFile(REPO, path, { version: { branch } }))?.content ?? 'null',
    ) as unknown;

  it("deploys a parameterised policy to two tenants with each tenant's own group; both then compare as compliant", async () => {
    const baseline = await fileAt(GROUP_UNIFIED, 'main');
    expect(valueOf(baseline as Setting, 'GroupCreationAllowedGroupId')).toBe(
      '{{aegis:param:groupCreatorsGroupId}}',
    );
    for (const code of ['NWT', 'WWI']) {
      const own = groupId(code, 'SG-License-M365-BusinessPremium');
      expect(own).toMatch(/^[0-9a-f-]{36}$/);
      // the tenant lost its setting: anyone may create groups
      const live = liveSetting(code, 'Group.Unified');
      for (const v of live.values ?? []) if (v.name === 'GroupCreationAllowedGroupId') v.value = '';

      const deploy = await run(DEPLOY, {
        ClientCode: code,
        Components: JSON.stringify(['Password Protection']),
      });
      expect({ result: deploy.result, log: deploy.log }).toMatchObject({ result: 'succeeded' });
      expect(deploy.log).toMatch(/updated AzureAD\/DirectorySetting\/Group\.Unified/);
      expect(valueOf(liveSetting(code, 'Group.Unified'), 'GroupCreationAllowedGroupId')).toBe(own);

      // the next capture holds the tenant's own id, equal to its parameter: no deviation
      const capture = await run(216, { ClientCode: code });
      const captured = await fileAt(
        `Clients/${code}/${GROUP_UNIFIED}`,
        `client-${code}-capture-${capture.id}`,
      );
      const parameters = parseTenantParameters(
        await fileAt(`Clients/${code}/.parameters.json`, 'main'),
      );
      const effective = effectiveBaseline(
        [{ path: GROUP_UNIFIED, content: baseline }],
        [],
        parameters,
      );
      expect(
        comparePolicy(effective.files[0]!, { path: GROUP_UNIFIED, content: captured }),
      ).toBeUndefined();
      // another tenant's group would be a deviation
      const other = substituteParameters(baseline, {
        groupCreatorsGroupId: groupId('FAB', 'SG-License-M365-BusinessPremium')!,
      });
      expect(
        comparePolicy(
          { path: GROUP_UNIFIED, content: other.content },
          { path: GROUP_UNIFIED, content: captured },
        ),
      ).toBeDefined();
    }
    expect(groupId('NWT', 'SG-License-M365-BusinessPremium')).not.toBe(
      groupId('WWI', 'SG-License-M365-BusinessPremium'),
    );
  });

  it('refuses to deploy, naming the parameter, when the client lacks it; nothing is written', async () => {
    const path = 'Clients/NWT/.parameters.json';
    const push = async (content: string, comment: string) => {
      const main = (await devops.listRefs(REPO, 'heads/main')).find(
        (r) => r.name === 'refs/heads/main',
      )!;
      await devops.push(REPO, {
        branch: 'refs/heads/main',
        oldObjectId: main.objectId,
        commits: [{ comment, changes: [{ changeType: 'edit', path, content }] }],
      });
    };
    const original = (await devops.getFile(REPO, path, { version: { branch: 'main' } }))!.content;
    await push('{ "parameters": {} }\n', 'NWT without its parameters');
    try {
      const before = liveSetting('NWT', 'Group.Unified');
      const snapshot = JSON.stringify(before);
      const deploy = await run(DEPLOY, {
        ClientCode: 'NWT',
        Components: JSON.stringify(['Password Protection']),
      });
      expect(deploy.result).toBe('failed');
      expect(deploy.log).toContain(
        "##[error]NWT has no value for parameter 'groupCreatorsGroupId' (used by AzureAD/DirectorySetting/Group.Unified.json). Set it on the client's Parameters screen before deploying.",
      );
      // refused before the backup and before any write
      expect(deploy.log).not.toMatch(/Rollback point/);
      expect(JSON.stringify(liveSetting('NWT', 'Group.Unified'))).toBe(snapshot);
      // a deploy that does not touch the policy is not held up by it
      const other = await run(DEPLOY, {
        ClientCode: 'NWT',
        Components: JSON.stringify(['Authorization Policy']),
      });
      expect({ result: other.result, log: other.log }).toMatchObject({ result: 'succeeded' });
    } finally {
      await push(original, 'NWT parameters back');
    }
  });

  it("deploys a layer's value to the client that names the layer, and the company's to the others", async () => {
    // CON drifted to the company's lockout; its layer 'Healthcare' says 5
    for (const v of liveSetting('CON', 'Password Rule Settings').values ?? []) {
      if (v.name === 'LockoutThreshold') v.value = '10';
    }
    const con = await run(DEPLOY, {
      ClientCode: 'CON',
      Components: JSON.stringify(['Password Protection']),
    });
    expect({ result: con.result, log: con.log }).toMatchObject({ result: 'succeeded' });
    expect(con.log).toContain("Effective baseline: the company baseline, then 'Healthcare'");
    expect(con.log).toMatch(/updated AzureAD\/DirectorySetting\/Password Rule Settings/);
    expect(valueOf(liveSetting('CON', 'Password Rule Settings'), 'LockoutThreshold')).toBe('5');
    expect(valueOf(liveSetting('WWI', 'Password Rule Settings'), 'LockoutThreshold')).toBe('10');
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
    // exactly the baseline's rules are gone; the client's own rule is untouched
    const rules = diff.changes
      .filter((c) => !c.isFolder && c.path.includes('/Exchange/TransportRule/'))
      .map((c) => `${c.changeType} ${c.path.slice(c.path.lastIndexOf('/') + 1)}`);
    expect(rules.sort()).toEqual([
      'delete Block Client Auto-Forwarding.json',
      'delete Block Executable Attachments.json',
      'delete External Sender Warning.json',
    ]);
  });
});

describe('off-board of a dropped layer (ADR 079)', () => {
  const CA = { category: 'ConditionalAccess', kind: 'Policy' };
  const LAYER_POLICY = 'CA950-Healthcare-Kiosks-BLOCK-Personal';
  const layerPolicyPath = `Layers/Healthcare/M365Config/Resources/ConditionalAccess/Policy/${LAYER_POLICY}.json`;
  const caPolicies = () => world.state(findSimulatedTenant('CON')!.tenantId).workloadObjects(CA);
  const caNames = () => [...caPolicies().values()].map((p) => p['displayName'] as string).sort();
  const pushToMain = async (comment: string, changes: FileChange[]) => {
    const main = (await devops.listRefs(REPO, 'heads/main')).find(
      (r) => r.name === 'refs/heads/main',
    )!;
    await devops.push(REPO, {
      branch: 'refs/heads/main',
      oldObjectId: main.objectId,
      commits: [{ comment, changes }],
    });
  };

  it("removes the policies only the dropped layer held, after a backup; the tenant's others stay", async () => {
    // the Healthcare layer added a policy of its own, which CON's tenant holds
    const template = [...caPolicies().values()][0]!;
    const layerPolicy = {
      ...structuredClone(template),
      id: 'c0950000-0000-4000-8000-000000000950',
      displayName: LAYER_POLICY,
    };
    caPolicies().set(layerPolicy.id, layerPolicy);
    const layersPath = 'Clients/CON/.layers.json';
    const layersBefore = (await devops.getFile(REPO, layersPath, { version: { branch: 'main' } }))!
      .content;
    await pushToMain('Healthcare adds a policy', [
      { changeType: 'add', path: layerPolicyPath, content: JSON.stringify(layerPolicy, null, 2) },
    ]);
    try {
      // CON still has the layer: its policies are its baseline, nothing is removed
      const refused = await run(231, {
        ClientCode: 'CON',
        DroppedLayers: JSON.stringify(['Healthcare']),
      });
      expect(refused.result).toBe('failed');
      expect(refused.log).toContain(
        "##[error]CON still has the layer(s) 'Healthcare': its policies are its baseline",
      );
      expect(refused.log).not.toMatch(/Rollback point/);
      expect(caNames()).toContain(LAYER_POLICY);

      // the layer change merged: CON has no layers now
      await pushToMain('CON without Healthcare', [
        { changeType: 'edit', path: layersPath, content: '{ "layers": [] }\n' },
      ]);
      const before = caNames();
      const passwordRules = JSON.stringify([
        ...world
          .state(findSimulatedTenant('CON')!.tenantId)
          .workloadObjects({ category: 'AzureAD', kind: 'DirectorySetting' })
          .values(),
      ]);
      const offboard = await run(231, {
        ClientCode: 'CON',
        DroppedLayers: JSON.stringify(['Healthcare']),
      });
      expect({ result: offboard.result, log: offboard.log }).toMatchObject({ result: 'succeeded' });
      // backed up before the first removal
      expect(offboard.log.indexOf('Rollback point')).toBeGreaterThan(-1);
      expect(offboard.log.indexOf('Rollback point')).toBeLessThan(
        offboard.log.indexOf(`removed Healthcare: ConditionalAccess/Policy/${LAYER_POLICY}.json`),
      );
      expect(offboard.log).toContain('1 removed, 0 not present, 0 waiting for approval');
      // exactly the layer's own policy is gone; the layer's override of a company policy
      // (Password Rule Settings, still the company's baseline) is left as it is
      expect(caNames()).toEqual(before.filter((n) => n !== LAYER_POLICY));
      expect(
        JSON.stringify([
          ...world
            .state(findSimulatedTenant('CON')!.tenantId)
            .workloadObjects({ category: 'AzureAD', kind: 'DirectorySetting' })
            .values(),
        ]),
      ).toBe(passwordRules);

      // a second run finds nothing left to remove
      const again = await run(231, {
        ClientCode: 'CON',
        DroppedLayers: JSON.stringify(['Healthcare']),
      });
      expect(again.log).toContain('0 removed, 1 not present, 0 waiting for approval');
    } finally {
      await pushToMain('CON and Healthcare as they were', [
        { changeType: 'edit', path: layersPath, content: layersBefore },
        { changeType: 'delete', path: layerPolicyPath },
      ]);
    }
  });
});

describe('the command line an Azure Pipelines agent runs (aegis-task)', () => {
  // Only the client tenant's tokens are swapped (the agent's credential needs an https authority):
  // everything else comes from the variables an agent provides, as pipelines/*.yml map them.
  const tenantTokens: TenantTokenProvider = (tenantId) => async (service) => {
    const scope = defaultScopeOf(MICROSOFT_CLOUD_DOORS[service]);
    const response = await fetch(`${fixture.idp.url}/${tenantId}/oauth2/v2.0/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'client_credentials',
        client_id: fixture.app.clientId,
        client_secret: fixture.app.clientSecret,
        scope,
      }),
    });
    return ((await response.json()) as { access_token: string }).access_token;
  };

  it("captures ABC into client-ABC-capture-{BUILD_BUILDID} from the agent's environment", async () => {
    const abc = findSimulatedTenant('ABC')!;
    const subscription = abc.subscriptions.find(
      (s) => s.displayName === DEFAULT_SUBSCRIPTION_NAME,
    )!;
    const lines: string[] = [];
    const code = await runCli(['capture', '--client', 'ABC', '--baseline-version', '2.1.0'], {
      env: {
        SYSTEM_COLLECTIONURI: `${fixture.emulator.url}/`,
        SYSTEM_TEAMPROJECT: PROJECT,
        SYSTEM_ACCESSTOKEN: 'good-token',
        BUILD_BUILDID: '4242',
        BUILD_REQUESTEDFOREMAIL: 'pipeline.owner@aegis-msp.example',
        AEGIS_TENANT_ID: abc.tenantId,
        AEGIS_CLIENT_ID: fixture.app.clientId,
        AEGIS_CLIENT_SECRET: 'unused: tokens come from tenantTokens',
        AEGIS_GRAPH_URL: tenants.url,
        AEGIS_EXCHANGE_URL: tenants.url,
        AEGIS_TEAMS_URL: tenants.url,
        AEGIS_ARM_URL: tenants.url,
        AEGIS_SUBSCRIPTION_ID: subscription.subscriptionId,
      },
      write: (line) => lines.push(line),
      agent: { tenantTokens },
    });
    expect({ code, output: lines }).toMatchObject({ code: 0 });
    expect(lines[0]).toBe('##[section]Capture of ABC');
    const branch = 'client-ABC-capture-4242';
    const diff = await devops.getCommitDiff(REPO, { branch: 'main' }, { branch });
    const policies = diff.changes.filter((c) => !c.isFolder && c.path.includes('/M365Config/'));
    // the same drift the runner's capture finds: ARM and admin-command workloads were read too
    expect(policies.map((c) => c.changeType).sort()).toEqual(['add', 'delete', 'edit', 'edit']);
    const metadata = await devops.getFile(REPO, 'Clients/ABC/.capture-metadata.json', {
      version: { branch },
    });
    expect(JSON.parse(metadata!.content)).toMatchObject({
      changeCount: 4,
      baselineVersion: '2.1.0',
      triggeredBy: 'pipeline.owner@aegis-msp.example',
    });
  });

  it('a deploy whose Intune writes wait for Multi Admin Approval ends the step succeeded with issues', async () => {
    const fab = findSimulatedTenant('FAB')!;
    // FAB as seeded: its macOS compliance policy deleted (an earlier test may have deployed it)
    world.reset();
    world.setScenarios(fab.tenantId, { multiAdminApproval: true });
    const lines: string[] = [];
    const code = await runCli(['deploy', '--client', 'FAB', '--components', 'Device Compliance'], {
      env: {
        SYSTEM_COLLECTIONURI: fixture.emulator.url,
        SYSTEM_TEAMPROJECT: PROJECT,
        SYSTEM_ACCESSTOKEN: 'good-token',
        BUILD_BUILDID: '4244',
        AEGIS_TENANT_ID: fab.tenantId,
        AEGIS_SUBSCRIPTION_ID: fab.subscriptions.find(
          (s) => s.displayName === DEFAULT_SUBSCRIPTION_NAME,
        )!.subscriptionId,
        AEGIS_CLIENT_ID: fixture.app.clientId,
        AEGIS_CLIENT_SECRET: 'unused: tokens come from tenantTokens',
        AEGIS_GRAPH_URL: tenants.url,
        AEGIS_EXCHANGE_URL: tenants.url,
        AEGIS_TEAMS_URL: tenants.url,
        AEGIS_ARM_URL: tenants.url,
      },
      write: (line) => lines.push(line),
      agent: { tenantTokens },
    });
    expect({ code, output: lines }).toMatchObject({ code: 0 });
    expect(lines).toContainEqual(
      expect.stringMatching(
        /^##vso\[task\.logissue type=warning\]Pending approval: 'Baseline - macOS - System Security': .*Multi Admin Approval/,
      ),
    );
    // the run shows as partially succeeded in Azure DevOps, not as a plain success
    expect(lines.at(-1)).toBe(
      '##vso[task.complete result=SucceededWithIssues;]1 change(s) wait for Multi Admin Approval in the tenant; they apply once a second administrator approves the request for run 4244.',
    );
  });

  it('fails with exit code 1 and an agent error line when the tenant cannot be read', async () => {
    const abc = findSimulatedTenant('ABC')!;
    const lines: string[] = [];
    const code = await runCli(['backup', '--client', 'ABC', '--manual-run', 'true'], {
      env: {
        SYSTEM_COLLECTIONURI: fixture.emulator.url,
        SYSTEM_TEAMPROJECT: PROJECT,
        SYSTEM_ACCESSTOKEN: 'good-token',
        BUILD_BUILDID: '4243',
        AEGIS_TENANT_ID: abc.tenantId,
        AEGIS_CLIENT_ID: fixture.app.clientId,
        AEGIS_CLIENT_SECRET: 'unused',
        AEGIS_GRAPH_URL: tenants.url,
        AEGIS_EXCHANGE_URL: tenants.url,
        AEGIS_TEAMS_URL: tenants.url,
        AEGIS_ARM_URL: tenants.url,
      },
      write: (line) => lines.push(line),
      agent: { tenantTokens: () => () => Promise.resolve('not-a-token') },
    });
    expect(code).toBe(1);
    // every service refuses the token; whichever read fails first is the one named
    expect(lines.at(-1)).toMatch(
      /^##vso\[task\.logissue type=error\]No workload of the tenant could be read\. .*(401|access token is invalid)/,
    );
  });
});
