// The configuration a capture reads and a deploy writes, through the pipeline tasks' own
// HttpTenantGateway and through Microsoft's Graph client library, against the tenant emulator.
import { GraphClient } from '@aegis/connectors/graph';
import {
  TENANT_WORKLOADS,
  hasPublicApi,
  workloadFor,
  workloadKey,
  type TenantWorkload,
} from '@aegis/domain';
import { HttpTenantGateway, objectsOfRead, writableBody } from '@aegis/pipeline-tasks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { requestUrl } from '../request-url';

import { gitCopyOf } from './live-config';
import { SIMULATED_TENANTS } from './registry';
import type { TenantEmulator } from './server';
import {
  appToken,
  delegatedToken,
  microsoftGraphClient,
  startTestTenantEmulator,
} from './test-support';
import { TenantWorld } from './world';

const tenant = SIMULATED_TENANTS.find((t) => t.clientCode === 'FAB')!;
const world = new TenantWorld();
let emulator: TenantEmulator;

function gateway(token = delegatedToken(tenant), fetcher?: typeof fetch): HttpTenantGateway {
  return new HttpTenantGateway({
    ...(fetcher ? { fetch: fetcher } : {}),
    tenantId: tenant.tenantId,
    urls: { graph: emulator.url, exchange: emulator.url, teams: emulator.url, arm: emulator.url },
    subscriptionId: tenant.subscriptions[0]!.subscriptionId,
    getToken: () => Promise.resolve(token),
    retry: { sleep: () => Promise.resolve() },
  });
}

/** Every workload's objects; a workload that was not read fails the test with its reason. */
async function readObjects(reader: HttpTenantGateway, workloads: readonly TenantWorkload[]) {
  return objectsOfRead(await reader.readAll(workloads));
}

function workload(key: string) {
  const [category = '', kind = ''] = key.split('/');
  const found = workloadFor(category, kind);
  if (!found) throw new Error(`no workload ${key}`);
  return found;
}

beforeAll(async () => {
  emulator = await startTestTenantEmulator({ world, defaultPageSize: 5 });
});
afterAll(() => emulator.close());

describe('capture reads the live configuration', () => {
  it('reads every workload: the git copy plus the drift (one added, one removed)', async () => {
    const read = await readObjects(gateway(), TENANT_WORKLOADS);
    const total = [...read.values()].reduce((n, list) => n + list.length, 0);
    // Planner has no public API: a capture does not read it (ADR 050)
    const withoutApi = TENANT_WORKLOADS.filter((w) => !hasPublicApi(w)).map(
      (w) => `${workloadKey(w)}/`,
    );
    const readable = [...gitCopyOf('FAB').keys()].filter(
      (path) => !withoutApi.some((folder) => path.startsWith(folder)),
    );
    expect(total).toBe(readable.length);
    const ca = read.get(workload('ConditionalAccess/Policy')) ?? [];
    expect(ca.map((p) => p['displayName'])).toContain(
      'CA902-FAB-Sales-AnyApp-AnyPlatform-SigninFrequency',
    );
    const legacy = ca.find((p) => String(p['displayName']).startsWith('CA002-'));
    expect(legacy?.['state']).toBe('disabled');
    const compliance = read.get(workload('Intune/DeviceCompliancePolicy')) ?? [];
    expect(compliance.map((p) => p['displayName'])).not.toContain(
      'Baseline - macOS - System Security',
    );
    const meeting = read.get(workload('Teams/MeetingPolicy')) ?? [];
    expect(meeting[0]?.['AllowAnonymousUsersToStartMeeting']).toBe(true);
    expect(read.get(workload('Exchange/TransportRule'))?.length).toBeGreaterThan(0);
    expect(read.get(workload('AzurePolicy/PolicyAssignment'))?.length).toBeGreaterThan(0);
    // settings catalog policies also list their settings as a sub-collection
    const catalog = read.get(workload('Intune/ConfigurationPolicy')) ?? [];
    const graph = new GraphClient({
      baseUrl: emulator.url,
      version: 'beta',
      getToken: () => Promise.resolve(delegatedToken(tenant)),
    });
    const settings = await graph.list(
      `/deviceManagement/configurationPolicies/${String(catalog[0]?.['id'])}/settings`,
    );
    expect(settings).toHaveLength(Number(catalog[0]?.['settingCount']));
    expect(await gateway().initialDomain()).toBe(tenant.initialDomain);
  });
});

describe("scenario 'failingWorkload': one workload cannot be read, the others are", () => {
  it('Exchange answering 403 is not permitted (naming the permission); the rest is read', async () => {
    const patch = await fetch(`${emulator.url}/_emulator/tenants/FAB/scenarios`, {
      method: 'PATCH',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ failingWorkload: { workload: 'Exchange', status: 403 } }),
    });
    expect(patch.status).toBe(200);
    try {
      const read = await gateway().readAll(TENANT_WORKLOADS);
      expect(read.get(workload('Exchange/TransportRule'))).toMatchObject({
        status: 'notPermitted',
        permission: 'Exchange.ManageAsApp and the Exchange Administrator role',
      });
      expect(read.get(workload('Exchange/OrganizationConfig'))?.status).toBe('notPermitted');
      // Defender goes through the same endpoint but is another category: still read
      expect(read.get(workload('Defender/AntiPhishPolicy'))?.status).toBe('read');
      const ca = read.get(workload('ConditionalAccess/Policy'));
      expect(ca?.status === 'read' && ca.objects.length).toBeGreaterThan(0);
      expect(read.get(workload('Planner/PlannerConfiguration'))).toEqual({ status: 'noPublicApi' });
    } finally {
      world.setScenarios(tenant.tenantId, { failingWorkload: null });
    }
  });

  it('Teams answering 503 through its own configuration service fails Teams only', async () => {
    world.setScenarios(tenant.tenantId, { failingWorkload: { workload: 'Teams', status: 503 } });
    try {
      const read = await gateway().readAll(TENANT_WORKLOADS);
      expect(read.get(workload('Teams/MeetingPolicy'))).toMatchObject({
        status: 'failed',
        httpStatus: 503,
      });
      expect(read.get(workload('Exchange/TransportRule'))?.status).toBe('read');
    } finally {
      world.setScenarios(tenant.tenantId, { failingWorkload: null });
    }
  });

  it('Settings Catalog answering 500 inside the $batch fails only that workload', async () => {
    world.setScenarios(tenant.tenantId, {
      failingWorkload: { workload: 'Intune/ConfigurationPolicy', status: 500 },
    });
    try {
      const graphWorkloads = TENANT_WORKLOADS.filter((w) => w.transport === 'graph');
      const read = await gateway().readAll(graphWorkloads);
      const failed = read.get(workload('Intune/ConfigurationPolicy'));
      expect(failed).toMatchObject({ status: 'failed', httpStatus: 500 });
      expect(failed?.status === 'failed' && failed.message).toMatch(/InternalServerError/);
      expect(read.get(workload('Intune/DeviceConfiguration'))?.status).toBe('read');
      const notRead = [...read.values()].filter((r) => r.status !== 'read');
      expect(notRead).toHaveLength(1);
    } finally {
      world.setScenarios(tenant.tenantId, { failingWorkload: null });
    }
  });

  it('refuses a switch that names no workload, naming the field', async () => {
    const patch = await fetch(`${emulator.url}/_emulator/tenants/FAB/scenarios`, {
      method: 'PATCH',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ failingWorkload: { workload: 'Nothing/Here', status: 500 } }),
    });
    expect(patch.status).toBe(400);
    expect(((await patch.json()) as { message: string }).message).toMatch(
      /^failingWorkload\.workload: names no workload/,
    );
  });
});

describe('capture reads Graph in $batches and follows its pages', () => {
  it('sends every Graph read as a $batch of at most 20, far fewer requests than objects', async () => {
    const graphCalls: { method: string; path: string; size: number }[] = [];
    const recording: typeof fetch = async (input, init) => {
      const url = new URL(input instanceof Request ? input.url : String(input));
      if (/^\/(v1\.0|beta)\//.test(url.pathname)) {
        const body = typeof init?.body === 'string' ? (JSON.parse(init.body) as unknown) : {};
        const size = (body as { requests?: unknown[] }).requests?.length ?? 0;
        graphCalls.push({ method: init?.method ?? 'GET', path: url.pathname, size });
      }
      return fetch(input, init);
    };
    const graphWorkloads = TENANT_WORKLOADS.filter((w) => w.transport === 'graph');
    const reader = gateway(delegatedToken(tenant), recording);
    const read = await readObjects(reader, graphWorkloads);
    const objects = [...read.values()].reduce((n, list) => n + list.length, 0);
    // the emulator pages by 5 here: a collection of more than 5 came back whole through nextLinks
    const largest = Math.max(...[...read.values()].map((list) => list.length));
    expect(largest).toBeGreaterThan(5);
    expect(graphCalls.length).toBeGreaterThan(0);
    // a $batch per version: SharePoint's settings are read at v1.0
    expect(
      graphCalls.every((c) => c.method === 'POST' && /^\/(beta|v1\.0)\/\$batch$/.test(c.path)),
    ).toBe(true);
    expect(graphCalls.filter((c) => c.path === '/v1.0/$batch')).toHaveLength(1);
    expect(Math.max(...graphCalls.map((c) => c.size))).toBeLessThanOrEqual(20);
    expect(graphCalls.length).toBeLessThan(objects / 3);
    expect(reader.requestCount).toBe(graphCalls.length);
  });
});

describe('deploy and off-board write the configuration', () => {
  it('creates, updates and removes a named location and a policy that uses it', async () => {
    const locations = workload('ConditionalAccess/NamedLocation');
    const policies = workload('ConditionalAccess/Policy');
    const created = await gateway().create(locations, {
      '@odata.type': '#microsoft.graph.countryNamedLocation',
      displayName: 'EU ONLY',
      countriesAndRegions: ['NL', 'DE'],
      includeUnknownCountriesAndRegions: false,
    });
    expect(created.status).toBe('done');
    const location = created.status === 'done' ? created.object : undefined;
    expect(location?.['id']).toEqual(expect.any(String));

    const policy = await gateway().create(policies, {
      displayName: 'CA950-FAB-EU-Only',
      state: 'enabledForReportingButNotEnforced',
      conditions: {
        users: { includeUsers: ['All'], excludeUsers: [], includeGroups: [], excludeGroups: [] },
        applications: { includeApplications: ['All'] },
        locations: { includeLocations: ['All'], excludeLocations: [String(location?.['id'])] },
      },
      grantControls: { operator: 'OR', builtInControls: ['block'] },
    });
    expect(policy.status).toBe('done');
    const policyObject = policy.status === 'done' ? policy.object! : {};
    // the location is in use: Graph refuses to delete it
    await expect(gateway().remove(locations, location!)).rejects.toMatchObject({ statusCode: 400 });
    await gateway().update(policies, policyObject, { state: 'enabled' });
    const after = (await readObjects(gateway(), [policies])).get(policies) ?? [];
    expect(after.find((p) => p['id'] === policyObject['id'])?.['state']).toBe('enabled');
    await gateway().remove(policies, policyObject);
    expect((await gateway().remove(locations, location!)).status).toBe('done');
  });

  it('rejects a policy naming a group that does not exist, as Graph does', async () => {
    const error = await gateway()
      .create(workload('ConditionalAccess/Policy'), {
        displayName: 'CA951-bad-reference',
        state: 'disabled',
        conditions: {
          users: { includeUsers: [], includeGroups: ['00000000-0000-4000-8000-000000000001'] },
        },
      })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({
      statusCode: 400,
      message: '1054: Invalid group value: 00000000-0000-4000-8000-000000000001.',
    });
  });

  it('Exchange through InvokeCommand: New, Set, Get, Remove', async () => {
    const rules = workload('Exchange/TransportRule');
    const made = await gateway().create(rules, {
      Name: 'FAB - Block Executables',
      Priority: 5,
      Mode: 'Enforce',
    });
    // InvokeCommand answers the cmdlet's output as a collection
    const output = made.status === 'done' ? made.object : undefined;
    const rule = ((output?.['value'] as Record<string, unknown>[] | undefined) ?? [])[0] ?? {};
    expect(rule['Identity']).toBe('FAB - Block Executables');
    await gateway().update(rules, rule, { Mode: 'Audit' });
    const read = (await readObjects(gateway(), [rules])).get(rules) ?? [];
    expect(read.find((r) => r['Name'] === 'FAB - Block Executables')?.['Mode']).toBe('Audit');
    await gateway().remove(rules, rule);
    await expect(gateway().remove(rules, rule)).rejects.toMatchObject({ statusCode: 404 });
  });

  it('Set- keeps the property spelling Get- returns (-CustomerLockboxEnabled sets CustomerLockBoxEnabled)', async () => {
    const org = workload('Exchange/OrganizationConfig');
    const [before] = (await readObjects(gateway(), [org])).get(org) ?? [];
    expect(before).toHaveProperty('CustomerLockBoxEnabled');
    await gateway().update(org, before!, { CustomerLockBoxEnabled: true });
    const [after] = (await readObjects(gateway(), [org])).get(org) ?? [];
    expect(after?.['CustomerLockBoxEnabled']).toBe(true);
    expect(Object.keys(after ?? {}).filter((k) => /^customerlockboxenabled$/i.test(k))).toEqual([
      'CustomerLockBoxEnabled',
    ]);
  });

  it('Teams policies through the Teams configuration service: New, Set, Get, Remove', async () => {
    const meeting = workload('Teams/MeetingPolicy');
    const paths: string[] = [];
    const recording: typeof fetch = (input, init) => {
      paths.push(`${init?.method ?? 'GET'} ${requestUrl(input).pathname}`);
      return fetch(input, init);
    };
    const teams = gateway(delegatedToken(tenant), recording);
    await teams.create(meeting, { Identity: 'Tag:FAB Sales', AllowCloudRecording: false });
    await teams.update(
      meeting,
      { Identity: 'Global' },
      { AllowAnonymousUsersToStartMeeting: false },
    );
    const read = (await readObjects(teams, [meeting])).get(meeting) ?? [];
    expect(read.find((p) => p['Identity'] === 'Tag:FAB Sales')?.['AllowCloudRecording']).toBe(
      false,
    );
    expect(
      read.find((p) => p['Identity'] === 'Global')?.['AllowAnonymousUsersToStartMeeting'],
    ).toBe(false);
    await teams.remove(meeting, { Identity: 'Tag:FAB Sales' });
    await expect(teams.remove(meeting, { Identity: 'Tag:FAB Sales' })).rejects.toMatchObject({
      statusCode: 404,
    });
    expect(paths).toEqual([
      'POST /Skype.Policy/configurations/TeamsMeetingPolicy/configuration/Tag%3AFAB%20Sales',
      'PUT /Skype.Policy/configurations/TeamsMeetingPolicy/configuration/Global',
      'GET /Skype.Policy/configurations/TeamsMeetingPolicy',
      'DELETE /Skype.Policy/configurations/TeamsMeetingPolicy/configuration/Tag%3AFAB%20Sales',
      'DELETE /Skype.Policy/configurations/TeamsMeetingPolicy/configuration/Tag%3AFAB%20Sales',
    ]);
  });

  it('SharePoint tenant settings through Graph v1.0: captured and deployed, only writable properties sent', async () => {
    const calls: { method: string; path: string; body: string }[] = [];
    const recording: typeof fetch = (input, init) => {
      calls.push({
        method: init?.method ?? 'GET',
        path: requestUrl(input).pathname,
        body: typeof init?.body === 'string' ? init.body : '',
      });
      return fetch(input, init);
    };
    const spo = gateway(delegatedToken(tenant), recording);
    const settings = workload('SharePoint/SharePointSettings');
    const [captured] = (await readObjects(spo, [settings])).get(settings) ?? [];
    // the sample's exports migrated to Graph's names (ADR 048 §6), with FAB's drift
    expect(captured).toMatchObject({
      sharingCapability: 'externalUserSharingOnly',
      isResharingByExternalUsersEnabled: false,
      isUnmanagedSyncAppForTenantRestricted: true,
      idleSessionSignOut: {
        isEnabled: true,
        warnAfterInSeconds: 3300,
        signOutAfterInSeconds: 3600,
      },
    });
    expect(calls.map((c) => `${c.method} ${c.path}`)).toEqual(['POST /v1.0/$batch']);

    // deploy: the baseline's file, read-only properties and all, written over the tenant's
    const baseline = {
      ...captured,
      '@odata.context':
        'https://graph.microsoft.com/v1.0/$metadata#admin/sharepoint/settings/$entity',
      sharingCapability: 'disabled',
      idleSessionSignOut: { isEnabled: true, warnAfterInSeconds: 600, signOutAfterInSeconds: 900 },
    };
    const outcome = await spo.update(settings, captured ?? {}, writableBody(baseline, settings));
    expect(outcome.status).toBe('done');
    const patch = calls.at(-1)!;
    expect(`${patch.method} ${patch.path}`).toBe('PATCH /v1.0/admin/sharepoint/settings');
    const sent = JSON.parse(patch.body) as Record<string, unknown>;
    expect(sent).not.toHaveProperty('availableManagedPathsForSiteCreation');
    expect(sent).not.toHaveProperty('@odata.context');
    const [after] = (await readObjects(spo, [settings])).get(settings) ?? [];
    expect(after).toMatchObject({
      sharingCapability: 'disabled',
      idleSessionSignOut: { signOutAfterInSeconds: 900 },
      availableManagedPathsForSiteCreation: captured?.['availableManagedPathsForSiteCreation'],
    });
    // the emulator refuses what Graph refuses: the whole file, read-only properties included
    await expect(spo.update(settings, captured ?? {}, baseline)).rejects.toMatchObject({
      statusCode: 400,
    });
  });

  it('no SPO* cmdlet goes to the Exchange admin API: what no public API covers is never sent', async () => {
    const cmdlets: string[] = [];
    const recording: typeof fetch = (input, init) => {
      if (requestUrl(input).pathname.endsWith('/InvokeCommand') && typeof init?.body === 'string') {
        const body = JSON.parse(init.body) as { CmdletInput?: { CmdletName?: string } };
        cmdlets.push(body.CmdletInput?.CmdletName ?? '');
      }
      return fetch(input, init);
    };
    const all = gateway(delegatedToken(tenant), recording);
    const read = await all.readAll(TENANT_WORKLOADS);
    const sharePoint = TENANT_WORKLOADS.filter((w) => w.category === 'SharePoint');
    expect(sharePoint.map((w) => [workloadKey(w), read.get(w)?.status])).toEqual([
      ['SharePoint/SharePointSettings', 'read'],
      ['SharePoint/SPOTenant', 'noPublicApi'],
      ['SharePoint/SPOAccessControl', 'noPublicApi'],
    ]);
    for (const w of sharePoint.filter((x) => x.transport === 'adminCommand')) {
      await expect(all.update(w, {}, { SharingCapability: 'Disabled' })).rejects.toThrow(
        /publishes no API/,
      );
      await expect(all.create(w, { SharingCapability: 'Disabled' })).rejects.toThrow(
        /publishes no API/,
      );
    }
    expect(cmdlets.length).toBeGreaterThan(0);
    expect(cmdlets.filter((name) => /-SPO/i.test(name))).toEqual([]);
    // and Exchange's endpoint does not know them, as Exchange Online does not
    const refused = await fetch(`${emulator.url}/adminapi/beta/${tenant.tenantId}/InvokeCommand`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${delegatedToken(tenant)}`,
        'content-type': 'application/json',
      },
      body: JSON.stringify({ CmdletInput: { CmdletName: 'Get-SPOTenant', Parameters: {} } }),
    });
    expect(refused.status).toBe(400);
  });

  it('ARM policy assignments: PUT, list, DELETE', async () => {
    const assignments = workload('AzurePolicy/PolicyAssignment');
    const made = await gateway().create(assignments, {
      name: 'require-tag-owner',
      properties: {
        displayName: 'Require Owner tag',
        policyDefinitionId: '/providers/Microsoft.Authorization/policyDefinitions/abc',
      },
    });
    expect(made.status).toBe('done');
    const listed = (await readObjects(gateway(), [assignments])).get(assignments) ?? [];
    const saved = listed.find((a) => a['name'] === 'require-tag-owner');
    expect(saved?.['id']).toBe(
      `/subscriptions/${tenant.subscriptions[0]!.subscriptionId}/providers/Microsoft.Authorization/policyAssignments/require-tag-owner`,
    );
    await gateway().remove(assignments, saved!);
    expect(
      ((await readObjects(gateway(), [assignments])).get(assignments) ?? []).some(
        (a) => a['name'] === 'require-tag-owner',
      ),
    ).toBe(false);
  });

  it('Multi Admin Approval: app-only Intune writes need a justification and wait for approval', async () => {
    const compliance = workload('Intune/DeviceCompliancePolicy');
    world.setScenarios(tenant.tenantId, { multiAdminApproval: true });
    const app = gateway(appToken(tenant));
    const body = {
      '@odata.type': '#microsoft.graph.windows10CompliancePolicy',
      displayName: 'FAB - Windows 11 minimum',
      scheduledActionsForRule: [
        {
          ruleName: 'PasswordRequired',
          scheduledActionConfigurations: [{ actionType: 'block', gracePeriodHours: 0 }],
        },
      ],
    };
    await expect(app.create(compliance, body)).rejects.toMatchObject({ statusCode: 400 });
    // Intune asks for the justification Base64-encoded: plain text is refused
    const plain = await fetch(
      `${emulator.url}/beta${compliance.transport === 'graph' ? compliance.path : ''}`,
      {
        method: 'POST',
        headers: {
          authorization: `Bearer ${appToken(tenant)}`,
          'content-type': 'application/json',
          'x-msft-approval-justification': 'Baseline deploy, change 4711',
        },
        body: JSON.stringify(body),
      },
    );
    expect(plain.status).toBe(400);
    const queued = await app.create(compliance, body, {
      justification: 'Baseline deploy, change 4711',
    });
    expect(queued.status).toBe('pendingApproval');
    const names = async () =>
      ((await readObjects(app, [compliance])).get(compliance) ?? []).map((p) => p['displayName']);
    expect(await names()).not.toContain('FAB - Windows 11 minimum');
    const pending = (await (
      await fetch(`${emulator.url}/_emulator/tenants/FAB/approvals`)
    ).json()) as { value: { id: string; justification: string }[] };
    expect(pending.value).toHaveLength(1);
    expect(pending.value[0]?.justification).toBe('Baseline deploy, change 4711');
    const approve = await fetch(
      `${emulator.url}/_emulator/tenants/FAB/approvals/${pending.value[0]!.id}/approve`,
      { method: 'POST' },
    );
    expect(approve.status).toBe(204);
    expect(await names()).toContain('FAB - Windows 11 minimum');
    // a signed-in administrator's own change is not queued
    expect(
      (await gateway().create(compliance, { ...body, displayName: 'FAB - by hand' })).status,
    ).toBe('done');
    world.setScenarios(tenant.tenantId, { multiAdminApproval: false });
  });
});

describe("Microsoft's Graph client library against the emulator", () => {
  function officialClient() {
    return microsoftGraphClient(emulator.url, delegatedToken(tenant));
  }

  it('lists conditional access policies', async () => {
    const client = officialClient();
    const page = (await client
      .api('/identity/conditionalAccess/policies')
      .top(999)
      .select(['id', 'displayName', 'state'])
      .get()) as { value: { displayName: string; state: string }[]; '@odata.nextLink'?: string };
    const expected = [...gitCopyOf('FAB').keys()].filter((k) =>
      k.startsWith('ConditionalAccess/Policy/'),
    ).length;
    // the git copy plus the policy added since the last capture
    expect(page.value).toHaveLength(expected + 1);
    expect(page['@odata.nextLink']).toBeUndefined();
    expect(page.value.map((p) => p.displayName)).toContain(
      'CA902-FAB-Sales-AnyApp-AnyPlatform-SigninFrequency',
    );
    // A smaller page carries an absolute @odata.nextLink to the next page. (The library's
    // PageIterator treats only https links as absolute, so it is not used against http.)
    const first = (await client.api('/identity/conditionalAccess/policies').get()) as {
      value: unknown[];
      '@odata.nextLink'?: string;
    };
    expect(first.value).toHaveLength(5);
    expect(first['@odata.nextLink']).toMatch(
      new RegExp(`^${emulator.url}/v1\\.0/identity/conditionalAccess/policies\\?.*skiptoken=`),
    );
  });

  it('filters service principals and surfaces Graph errors as GraphError', async () => {
    const client = officialClient();
    const found = (await client
      .api('/servicePrincipals')
      .filter("appId eq '00000003-0000-0000-c000-000000000000'")
      .select(['id', 'displayName'])
      .get()) as { value: { displayName: string }[] };
    expect(found.value.map((sp) => sp.displayName)).toEqual(['Microsoft Graph']);
    const error: unknown = await client
      .api('/directoryRoleTemplates/00000000-0000-0000-0000-000000000000')
      .get()
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ statusCode: 404, code: 'Request_ResourceNotFound' });
  });
});
