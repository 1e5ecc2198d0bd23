// The tenant emulator's audit logs (issue 28 §2, ADR 064): a change made through Graph, the
// Exchange admin API or by the tenant's seeded drift is served, in Microsoft's shapes (held to the
// contract extract's property shapes), by Entra's directoryAudits, Intune's auditEvents and the
// unified audit log's Exchange admin records; $filter, $top and paging work through Microsoft's own
// Graph client, and the 'auditLogUnavailable' switch answers as Microsoft does without a licence
// or a permission.
import type { PageCollection } from '@microsoft/microsoft-graph-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { departures, shapesOf } from './contract-shapes';
import { SIMULATED_TENANTS } from './registry';
import type { TenantEmulator } from './server';
import {
  appToken,
  delegatedToken,
  microsoftGraphClient,
  startTestTenantEmulator,
} from './test-support';
import { AEGIS_ENTERPRISE_APP, TenantWorld } from './world';

const abc = SIMULATED_TENANTS.find((t) => t.clientCode === 'ABC')!;
const START = Date.parse('2026-11-27T10:00:00Z');
let now = START;
const world = new TenantWorld({ now: () => now });
let emulator: TenantEmulator;

beforeAll(async () => {
  emulator = await startTestTenantEmulator({ world, defaultPageSize: 2 });
});
afterAll(() => emulator.close());

type Json = Record<string, unknown>;

async function call(
  method: string,
  path: string,
  body?: unknown,
  token = appToken(abc),
): Promise<{ status: number; body: Json }> {
  const response = await fetch(`${emulator.url}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const text = await response.text();
  return { status: response.status, body: text ? (JSON.parse(text) as Json) : {} };
}

async function invoke(cmdlet: string, parameters: Json) {
  return call('POST', `/adminapi/beta/${abc.tenantId}/InvokeCommand`, {
    CmdletInput: { CmdletName: cmdlet, Parameters: parameters },
  });
}

async function directoryAudits(query = ''): Promise<Json[]> {
  const answer = await call('GET', `/v1.0/auditLogs/directoryAudits?$top=999${query}`);
  expect(answer.status).toBe(200);
  return answer.body['value'] as Json[];
}

describe("the tenant's seeded drift is in its audit logs", () => {
  it('Entra has the Conditional Access change and the added policy, by the Global Administrator, before now', async () => {
    const audits = await directoryAudits();
    const ca004 = audits.find(
      (a) =>
        a['activityDisplayName'] === 'Update conditional access policy' &&
        (a['targetResources'] as Json[])[0]?.['displayName'] ===
          'CA004-Global-IdentityProtection-AnyApp-AnyPlatform-MFA-RiskySignIn',
    );
    expect(ca004).toMatchObject({
      category: 'Policy',
      loggedByService: 'Conditional Access',
      operationType: 'Update',
      result: 'success',
      initiatedBy: { app: null, user: { userPrincipalName: abc.globalAdministrator.upn } },
    });
    expect(Date.parse(String(ca004?.['activityDateTime']))).toBeLessThan(START);
    expect((ca004?.['targetResources'] as Json[])[0]?.['modifiedProperties']).toEqual([
      { displayName: 'state', oldValue: 'enabled', newValue: 'enabledForReportingButNotEnforced' },
    ]);
    expect(audits.map((a) => a['activityDisplayName'])).toContain('Add conditional access policy');
    for (const audit of audits) {
      expect(departures(shapesOf('v1.0', '/auditLogs/directoryAudits'), audit)).toEqual([]);
    }
  });

  it('Intune has the deleted iOS restrictions; the unified audit log the Exchange change', async () => {
    const events = await call('GET', '/v1.0/deviceManagement/auditEvents');
    const deleted = (events.body['value'] as Json[]).find(
      (e) => e['activityType'] === 'Delete DeviceConfiguration',
    );
    expect(deleted).toMatchObject({
      activityOperationType: 'Delete',
      actor: { auditActorType: 'ItPro', userPrincipalName: abc.globalAdministrator.upn },
      resources: [{ displayName: 'Baseline - iOSiPadOS - Device Restrictions' }],
    });
    expect(departures(shapesOf('v1.0', '/deviceManagement/auditEvents'), deleted!)).toEqual([]);

    const search = await invoke('Search-UnifiedAuditLog', {
      StartDate: '2026-11-26T00:00:00Z',
      EndDate: '2026-11-27T10:00:00Z',
      RecordType: 'ExchangeAdmin',
    });
    expect(search.status).toBe(200);
    const [record] = search.body['value'] as Json[];
    expect(record).toMatchObject({
      RecordType: 'ExchangeAdmin',
      Operations: 'Set-OrganizationConfig',
      UserIds: abc.globalAdministrator.upn,
      ResultIndex: 1,
      ResultCount: 1,
    });
    const auditData = JSON.parse(String(record?.['AuditData'])) as Json;
    expect(auditData).toMatchObject({
      Operation: 'Set-OrganizationConfig',
      RecordType: 1,
      Workload: 'Exchange',
      ObjectId: 'Organization Config',
      OrganizationId: abc.tenantId,
      ModifiedProperties: [{ Name: 'AuditDisabled', OldValue: 'false', NewValue: 'true' }],
    });
  });
});

describe('a write through the APIs is in the audit log of its service', () => {
  it('a Graph PATCH of a Conditional Access policy, by the Aegis app, with what it changed', async () => {
    now = START + 60_000;
    const policies = await call('GET', '/beta/identity/conditionalAccess/policies?$top=999');
    const policy = (policies.body['value'] as Json[]).find((p) => p['state'] === 'enabled')!;
    expect(
      (
        await call('PATCH', `/beta/identity/conditionalAccess/policies/${String(policy['id'])}`, {
          state: 'disabled',
        })
      ).status,
    ).toBe(204);
    const recent = await directoryAudits(`&$filter=activityDateTime ge 2026-11-27T10:00:30Z`);
    expect(recent).toHaveLength(1);
    expect(recent[0]).toMatchObject({
      activityDisplayName: 'Update conditional access policy',
      activityDateTime: '2026-11-27T10:01:00.000Z',
      initiatedBy: {
        user: null,
        app: { appId: AEGIS_ENTERPRISE_APP.appId, displayName: AEGIS_ENTERPRISE_APP.displayName },
      },
      targetResources: [
        {
          id: policy['id'],
          displayName: policy['displayName'],
          modifiedProperties: [{ displayName: 'state', oldValue: 'enabled', newValue: 'disabled' }],
        },
      ],
    });
    expect(departures(shapesOf('v1.0', '/auditLogs/directoryAudits'), recent[0]!)).toEqual([]);
  });

  it('an Intune PATCH as the Global Administrator, in v1.0 and beta shapes', async () => {
    now = START + 120_000;
    const configurations = await call('GET', '/beta/deviceManagement/deviceConfigurations');
    const target = (configurations.body['value'] as Json[])[0]!;
    const patched = await call(
      'PATCH',
      `/beta/deviceManagement/deviceConfigurations/${String(target['id'])}`,
      { description: 'changed by hand' },
      delegatedToken(abc),
    );
    expect(patched.status).toBe(204);
    for (const version of ['v1.0', 'beta'] as const) {
      const events = await call(
        'GET',
        `/${version}/deviceManagement/auditEvents?$filter=activityDateTime ge 2026-11-27T10:01:30Z`,
      );
      const value = events.body['value'] as Json[];
      expect(value.map((e) => e['activityType'])).toEqual(['Patch DeviceConfiguration']);
      expect(value[0]).toMatchObject({
        resources: [{ resourceId: target['id'], displayName: target['displayName'] }],
      });
      expect(departures(shapesOf(version, '/deviceManagement/auditEvents'), value[0]!)).toEqual([]);
    }
  });

  it('an Exchange Set- through the admin API, found by its cmdlet and paged by session', async () => {
    now = START + 180_000;
    const rules = await invoke('Get-TransportRule', {});
    const rule = (rules.body['value'] as Json[])[0]!;
    expect(
      (await invoke('Set-TransportRule', { Identity: rule['Name'], Comments: 'x' })).status,
    ).toBe(200);
    now = START + 240_000;
    expect(
      (await invoke('Set-TransportRule', { Identity: rule['Name'], Comments: 'y' })).status,
    ).toBe(200);
    const session = {
      StartDate: '2026-11-27 10:02:30',
      EndDate: '2026-11-27T10:05:00Z',
      Operations: 'Set-TransportRule',
      SessionId: 'aegis-quick-check',
      SessionCommand: 'ReturnLargeSet',
      ResultSize: 1,
    };
    const pages: Json[][] = [];
    for (let i = 0; i < 3; i += 1)
      pages.push((await invoke('Search-UnifiedAuditLog', session)).body['value'] as Json[]);
    expect(pages.map((p) => p.map((r) => r['ResultIndex']))).toEqual([[1], [2], []]);
    const newest = JSON.parse(String(pages[0]![0]!['AuditData'])) as Json;
    expect(newest).toMatchObject({
      Operation: 'Set-TransportRule',
      ObjectId: rule['Name'],
      UserId: AEGIS_ENTERPRISE_APP.displayName,
      AppId: AEGIS_ENTERPRISE_APP.appId,
      CreationTime: '2026-11-27T10:04:00',
      Parameters: [
        { Name: 'Identity', Value: rule['Name'] },
        { Name: 'Comments', Value: 'y' },
      ],
    });
  });

  it('refuses a search without its mandatory dates, or with a date it cannot read', async () => {
    const missing = await invoke('Search-UnifiedAuditLog', { StartDate: '2026-11-27T10:00:00Z' });
    expect(missing).toMatchObject({
      status: 400,
      body: { error: { code: 'ParameterBindingException' } },
    });
    const unreadable = await invoke('Search-UnifiedAuditLog', {
      StartDate: 'yesterday',
      EndDate: '2026-11-27T10:00:00Z',
    });
    expect(unreadable.body['error']).toMatchObject({
      code: 'ParameterBindingException',
      message: expect.stringContaining("'StartDate'") as unknown,
    });
  });
});

describe('a change made by the drift switch', () => {
  const drift = (body: unknown) => call('POST', `/_emulator/tenants/${abc.clientCode}/drift`, body);

  it("is the Global Administrator's, in the log of its service, at the time it was made", async () => {
    now = START + 300_000;
    const policies = await call('GET', '/beta/identity/conditionalAccess/policies?$top=999');
    const policy = (policies.body['value'] as Json[]).find((p) => p['state'] === 'enabled')!;
    const changed = await drift({
      workload: 'ConditionalAccess/Policy',
      object: policy['displayName'],
      set: { state: 'enabledForReportingButNotEnforced' },
    });
    expect(changed).toMatchObject({
      status: 200,
      body: { after: { state: 'enabledForReportingButNotEnforced' } },
    });
    const [audit] = await directoryAudits(`&$filter=activityDateTime ge 2026-11-27T10:05:00Z`);
    expect(audit).toMatchObject({
      activityDisplayName: 'Update conditional access policy',
      activityDateTime: '2026-11-27T10:05:00.000Z',
      initiatedBy: { app: null, user: { userPrincipalName: abc.globalAdministrator.upn } },
      targetResources: [
        {
          id: policy['id'],
          modifiedProperties: [
            {
              displayName: 'state',
              oldValue: 'enabled',
              newValue: 'enabledForReportingButNotEnforced',
            },
          ],
        },
      ],
    });

    now = START + 360_000;
    expect(
      (
        await drift({
          workload: 'Exchange/TransportConfig',
          object: 'Transport Config',
          set: { SmtpClientAuthenticationDisabled: false },
        })
      ).status,
    ).toBe(200);
    const search = await invoke('Search-UnifiedAuditLog', {
      StartDate: '2026-11-27T10:05:30Z',
      EndDate: '2026-11-27T10:07:00Z',
    });
    expect((search.body['value'] as Json[]).map((r) => [r['Operations'], r['UserIds']])).toEqual([
      ['Set-TransportConfig', abc.globalAdministrator.upn],
    ]);
  });

  it('refuses what names no workload or no object', async () => {
    const noWorkload = await drift({
      workload: 'Planner/PlannerConfiguration',
      object: 'x',
      set: { a: 1 },
    });
    expect(noWorkload.status).toBe(400);
    expect(String(noWorkload.body['message'])).toMatch(/^workload: /);
    const noProperty = await drift({
      workload: 'Intune/DeviceConfiguration',
      object: 'x',
      set: {},
    });
    expect(noProperty.status).toBe(400);
    const noObject = await drift({
      workload: 'Intune/DeviceConfiguration',
      object: 'No such profile',
      remove: true,
    });
    expect(noObject).toMatchObject({
      status: 404,
      body: { message: 'No No such profile in Intune/DeviceConfiguration' },
    });
  });
});

describe("paging through Microsoft's Graph client", () => {
  it('follows @odata.nextLink at $top=1 through every entry since a time, newest first', async () => {
    const client = microsoftGraphClient(emulator.url, appToken(abc));
    const first = (await client
      .api('/auditLogs/directoryAudits')
      .version('v1.0')
      .filter('activityDateTime ge 2026-11-27T00:00:00Z')
      .top(1)
      .get()) as PageCollection;
    expect(first['@odata.nextLink']).toEqual(expect.stringContaining('skiptoken'));
    // the library follows https nextLinks only (the emulator is http): each link's path and query
    // go back through the same client
    const times: string[] = [];
    let page: PageCollection | undefined = first;
    while (page) {
      times.push(...page.value.map((audit: Json) => String(audit['activityDateTime'])));
      const next: string | undefined = page['@odata.nextLink'];
      const link: URL | undefined = next ? new URL(next) : undefined;
      page = link
        ? ((await client
            .api(`${link.pathname.replace(/^\/v1\.0/, '')}${link.search}`)
            .version('v1.0')
            .get()) as PageCollection)
        : undefined;
    }
    const everything = await directoryAudits();
    expect(times).toEqual(everything.map((a) => a['activityDateTime']));
    expect(times.length).toBeGreaterThan(2);
    expect([...times].sort().reverse()).toEqual(times);
  });
});

describe("the 'auditLogUnavailable' switch", () => {
  const switchTo = (value: unknown) =>
    call('PATCH', `/_emulator/tenants/${abc.clientCode}/scenarios`, { auditLogUnavailable: value });

  it('answers as Microsoft does without the permission or the licence', async () => {
    expect((await switchTo({ log: 'all', reason: 'permission' })).status).toBe(200);
    expect((await call('GET', '/v1.0/auditLogs/directoryAudits')).body['error']).toMatchObject({
      code: 'Authorization_RequestDenied',
    });
    const intune = await call('GET', '/v1.0/deviceManagement/auditEvents');
    expect(intune.status).toBe(403);
    expect(String((intune.body['error'] as Json)['message'])).toContain(
      'DeviceManagementApps.Read.All',
    );
    const exchange = await invoke('Search-UnifiedAuditLog', {
      StartDate: '2026-11-27T00:00:00Z',
      EndDate: '2026-11-27T10:00:00Z',
    });
    expect(exchange.body['error']).toMatchObject({ code: 'CommandNotFoundException' });

    expect((await switchTo({ log: 'entraDirectoryAudits', reason: 'licence' })).status).toBe(200);
    const entra = await call('GET', '/v1.0/auditLogs/directoryAudits');
    expect(entra).toMatchObject({
      status: 403,
      body: { error: { code: 'Authentication_RequestFromNonPremiumTenantOrB2CTenant' } },
    });
    expect((await call('GET', '/v1.0/deviceManagement/auditEvents')).status).toBe(200);
    await switchTo(null);
    expect((await call('GET', '/v1.0/auditLogs/directoryAudits')).status).toBe(200);
  });

  it('refuses a switch that names no log', async () => {
    const answer = await switchTo({ log: 'signIns', reason: 'licence' });
    expect(answer.status).toBe(400);
    expect(String(answer.body['message'])).toMatch(/^auditLogUnavailable\.log/);
  });
});

describe('retention', () => {
  it('Entra keeps 30 days; Intune a year and the unified audit log 180 days keep more', async () => {
    const day = 24 * 60 * 60_000;
    now = START + 31 * day;
    expect(await directoryAudits()).toEqual([]);
    const events = await call('GET', '/v1.0/deviceManagement/auditEvents?$top=999');
    expect((events.body['value'] as Json[]).length).toBeGreaterThan(0);
    const search = await invoke('Search-UnifiedAuditLog', {
      StartDate: '2026-11-26T00:00:00Z',
      EndDate: '2026-11-28T00:00:00Z',
    });
    expect((search.body['value'] as Json[]).length).toBeGreaterThan(0);
    now = START + 181 * day;
    const later = await invoke('Search-UnifiedAuditLog', {
      StartDate: '2026-11-26T00:00:00Z',
      EndDate: '2026-11-28T00:00:00Z',
    });
    expect(later.body['value']).toEqual([]);
  });
});
