// The pipeline tasks' audit reader (HttpTenantGateway.readAuditLogs, ADR 064) against the tenant
// emulator: what an unchanged tenant costs a quick check, the seeded drift and API writes read back
// as normalised entries that attribute each drifted object, and a log the tenant cannot give
// turned into the reason a drift stays 'unknown'.
import {
  attributeDrift,
  quickCheckWorkloads,
  type TenantAuditEntry,
  textOf,
  workloadsTouchedBy,
} from '@aegis/domain';
import { HttpTenantGateway } from '@aegis/pipeline-tasks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { requestUrl } from '../request-url';

import { SIMULATED_TENANTS } from './registry';
import type { TenantEmulator } from './server';
import { appToken, startTestTenantEmulator } from './test-support';
import { AEGIS_ENTERPRISE_APP, TenantWorld } from './world';

const abc = SIMULATED_TENANTS.find((t) => t.clientCode === 'ABC')!;
const START = Date.parse('2026-11-27T10:00:00Z');
let now = START;
const world = new TenantWorld({ now: () => now });
let emulator: TenantEmulator;

beforeAll(async () => {
  // pages of 2: the Entra log comes back over several nextLinks
  emulator = await startTestTenantEmulator({ world, defaultPageSize: 2 });
  world.state(abc.tenantId);
});
afterAll(() => emulator.close());

interface Sent {
  service: 'graph' | 'exchange' | 'other';
}

function gateway(sent: Sent[] = []): HttpTenantGateway {
  const recording: typeof fetch = (input, init) => {
    const path = requestUrl(input).pathname;
    sent.push({
      service: /^\/(v1\.0|beta)\//.test(path)
        ? 'graph'
        : path.startsWith('/adminapi/')
          ? 'exchange'
          : 'other',
    });
    return fetch(input, init);
  };
  return new HttpTenantGateway({
    tenantId: abc.tenantId,
    urls: { graph: emulator.url, exchange: emulator.url, teams: emulator.url, arm: emulator.url },
    getToken: () => Promise.resolve(appToken(abc)),
    fetch: recording,
    retry: { sleep: () => Promise.resolve() },
  });
}

async function call(method: string, path: string, body?: unknown) {
  const response = await fetch(`${emulator.url}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${appToken(abc)}`,
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const text = await response.text();
  return {
    status: response.status,
    body: (text ? JSON.parse(text) : {}) as Record<string, unknown>,
  };
}

describe('a quick check of a tenant where nothing changed', () => {
  it('costs one Graph request (both Graph logs in one $batch) and one Exchange search', async () => {
    const sent: Sent[] = [];
    const { entries, reads } = await gateway(sent).readAuditLogs(new Date(START), {
      until: new Date(START + 60_000),
    });
    expect(entries).toEqual([]);
    expect(Object.values(reads).map((r) => r?.status)).toEqual(['read', 'read', 'read']);
    expect(sent.filter((s) => s.service === 'graph')).toHaveLength(1);
    expect(sent.filter((s) => s.service === 'exchange')).toHaveLength(1);
    // and it re-reads only what no log covers: SharePoint and Forms settings are Graph's, 2 more
    expect(
      quickCheckWorkloads(entries, reads).filter((k) => /^(SharePoint|Forms)\//.test(k)),
    ).toEqual(['Forms/FormsSettings', 'SharePoint/SharePointSettings']);
  });
});

describe("the tenant's seeded drift, read back", () => {
  it('names the Global Administrator and the time of each drifted object', async () => {
    const since = new Date(START - 6 * 60 * 60_000);
    const { entries, reads } = await gateway().readAuditLogs(since, { until: new Date(START) });
    expect(workloadsTouchedBy(entries)).toEqual([
      'ConditionalAccess/Policy',
      'Intune/DeviceConfiguration',
      'Exchange/OrganizationConfig',
    ]);
    const state = world.state(abc.tenantId);
    const added = [
      ...state.workloadObjects({ category: 'ConditionalAccess', kind: 'Policy' }).values(),
    ].find((p) => p['displayName'] === 'CA900-ABC-Finance-AnyApp-AnyPlatform-BLOCK-Weekend')!;
    const attributions = attributeDrift(
      [
        {
          workload: 'ConditionalAccess/Policy',
          name: 'CA004-Global-IdentityProtection-AnyApp-AnyPlatform-MFA-RiskySignIn',
        },
        { workload: 'ConditionalAccess/Policy', id: textOf(added['id']) },
        {
          workload: 'Intune/DeviceConfiguration',
          name: 'Baseline - iOSiPadOS - Device Restrictions',
        },
        { workload: 'Exchange/OrganizationConfig' },
      ],
      entries,
      reads,
      since.toISOString(),
    );
    expect(attributions.map((a) => a.status === 'attributed' && a.actor)).toEqual(
      Array(4).fill(abc.globalAdministrator.upn),
    );
    expect(attributions.map((a) => a.status === 'attributed' && a.operation)).toEqual([
      'Update conditional access policy',
      'Add conditional access policy',
      'Delete DeviceConfiguration',
      'Set-OrganizationConfig',
    ]);
    const times = attributions.map((a) => (a.status === 'attributed' ? Date.parse(a.time) : 0));
    expect(times.every((t) => t > since.getTime() && t < START)).toBe(true);
    expect(attributions[3]).toMatchObject({
      modifiedProperties: [{ name: 'AuditDisabled', oldValue: 'false', newValue: 'true' }],
    });
  });
});

describe('writes through the APIs, read back', () => {
  it('a Conditional Access change by the Aegis app and an Exchange rule change, normalised', async () => {
    now = START + 5 * 60_000;
    const policies = await call('GET', '/beta/identity/conditionalAccess/policies?$top=999');
    const policy = (policies.body['value'] as Record<string, unknown>[]).find(
      (p) => p['state'] === 'enabled',
    )!;
    await call('PATCH', `/beta/identity/conditionalAccess/policies/${String(policy['id'])}`, {
      state: 'disabled',
    });
    now = START + 6 * 60_000;
    const reader = gateway();
    const rules = await call('POST', `/adminapi/beta/${abc.tenantId}/InvokeCommand`, {
      CmdletInput: { CmdletName: 'Get-TransportRule', Parameters: {} },
    });
    const rule = (rules.body['value'] as Record<string, unknown>[])[0]!;
    await call('POST', `/adminapi/beta/${abc.tenantId}/InvokeCommand`, {
      CmdletInput: {
        CmdletName: 'Set-TransportRule',
        Parameters: { Identity: rule['Name'], Comments: 'changed in the tenant' },
      },
    });

    const { entries, reads } = await reader.readAuditLogs(new Date(START + 60_000), {
      until: new Date(START + 7 * 60_000),
    });
    expect(entries.map((e) => [e.log, e.operation])).toEqual([
      ['exchangeAdminAuditLog', 'Set-TransportRule'],
      ['entraDirectoryAudits', 'Update conditional access policy'],
    ]);
    const [exchange, entra] = entries as [TenantAuditEntry, TenantAuditEntry];
    expect(entra).toMatchObject({
      actor: AEGIS_ENTERPRISE_APP.displayName,
      time: '2026-11-27T10:05:00.000Z',
      workloads: ['ConditionalAccess/Policy'],
      targets: [{ id: policy['id'], name: policy['displayName'] }],
      modifiedProperties: [{ name: 'state', oldValue: 'enabled', newValue: 'disabled' }],
    });
    expect(exchange).toMatchObject({
      actor: AEGIS_ENTERPRISE_APP.displayName,
      time: '2026-11-27T10:06:00Z',
      workloads: ['Exchange/TransportRule'],
      targets: [{ name: rule['Name'] }],
      modifiedProperties: [{ name: 'Comments', newValue: 'changed in the tenant' }],
    });
    const needed = quickCheckWorkloads(entries, reads);
    expect(needed).toContain('ConditionalAccess/Policy');
    expect(needed).toContain('Exchange/TransportRule');
    expect(needed).not.toContain('Intune/DeviceConfiguration');
  });
});

describe('a log the tenant cannot give', () => {
  it("leaves its drift 'unknown' with the reason, and the quick check re-reads its workloads", async () => {
    const switchTo = (value: unknown) =>
      call('PATCH', `/_emulator/tenants/${abc.clientCode}/scenarios`, {
        auditLogUnavailable: value,
      });
    await switchTo({ log: 'entraDirectoryAudits', reason: 'permission' });
    const permission = await gateway().readAuditLogs(new Date(START - 6 * 60 * 60_000));
    expect(permission.reads.entraDirectoryAudits).toMatchObject({
      status: 'notPermitted',
      permission: 'AuditLog.Read.All',
    });
    expect(permission.reads.intuneAuditEvents?.status).toBe('read');
    const [ca] = attributeDrift(
      [
        {
          workload: 'ConditionalAccess/Policy',
          name: 'CA004-Global-IdentityProtection-AnyApp-AnyPlatform-MFA-RiskySignIn',
        },
      ],
      permission.entries,
      permission.reads,
    );
    expect(ca).toEqual({ status: 'unknown', reason: 'Aegis lacks permission AuditLog.Read.All' });
    expect(quickCheckWorkloads(permission.entries, permission.reads)).toContain('AzureAD/Group');

    await switchTo({ log: 'all', reason: 'licence' });
    const licence = await gateway().readAuditLogs(new Date(START - 6 * 60 * 60_000));
    expect(Object.values(licence.reads).map((r) => r?.status)).toEqual([
      'notLicensed',
      'notLicensed',
      'notLicensed',
    ]);
    const [exchange] = attributeDrift(
      [{ workload: 'Exchange/OrganizationConfig' }],
      licence.entries,
      licence.reads,
    );
    expect(exchange).toEqual({
      status: 'unknown',
      reason: "the tenant's licence does not include audit logs",
    });
    await switchTo({ log: 'exchangeAdminAuditLog', reason: 'permission' });
    const search = await gateway().readAuditLogs(new Date(START));
    expect(search.reads.exchangeAdminAuditLog).toMatchObject({
      status: 'notPermitted',
      permission: 'Exchange.ManageAsApp and the Exchange Administrator role',
    });
    await switchTo(null);
  });
});
