// The Graph connector against the tenant emulator: paging, $batch, $filter/$select, errors and
// throttling, and the onboarding directory calls (spec 2 §7).
import { isServiceError } from '@aegis/connectors';
import {
  DIRECTORY_ROLE_TEMPLATE_IDS,
  DirectoryClient,
  GraphClient,
  batchError,
} from '@aegis/connectors/graph';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { SIMULATED_TENANTS } from './registry';
import type { TenantEmulator } from './server';
import { appToken, delegatedToken, startTestTenantEmulator } from './test-support';
import { AEGIS_ENTERPRISE_APP, TenantWorld } from './world';

const tenant = SIMULATED_TENANTS.find((t) => t.clientCode === 'ADW')!;
let now = 5_000_000;
const world = new TenantWorld({ now: () => now, propagationDelayInMs: 2000 });
let emulator: TenantEmulator;
const sleeps: number[] = [];
const retry = { maxRetries: 3, sleep: async (ms: number) => void sleeps.push(ms) };

function client(token = delegatedToken(tenant)): GraphClient {
  return new GraphClient({ baseUrl: emulator.url, getToken: async () => token, retry });
}

beforeAll(async () => {
  emulator = await startTestTenantEmulator({ world, defaultPageSize: 2 });
});
afterAll(() => emulator.close());

describe('GraphClient against the tenant emulator', () => {
  it('follows @odata.nextLink across pages', async () => {
    const graph = client();
    const pages: number[] = [];
    for await (const page of graph.pages('/directoryRoleTemplates')) pages.push(page.length);
    expect(pages.length).toBeGreaterThan(2);
    const all = await graph.list<{ id: string }>('/directoryRoleTemplates');
    expect(all).toHaveLength(pages.reduce((a, b) => a + b, 0));
    expect(new Set(all.map((t) => t.id)).size).toBe(all.length);
    expect(all.map((t) => t.id)).toContain(DIRECTORY_ROLE_TEMPLATE_IDS.teamsAdministrator);
  });

  it('filters and selects', async () => {
    const found = await client().list<Record<string, unknown>>('/servicePrincipals', {
      query: { filter: "displayName eq 'Microsoft Graph'", select: ['appId', 'displayName'] },
    });
    expect(found).toEqual([
      {
        id: expect.any(String),
        appId: '00000003-0000-0000-c000-000000000000',
        displayName: 'Microsoft Graph',
      },
    ]);
  });

  it('keeps Graph error code, message and request id', async () => {
    const error = await client()
      .get('/directoryRoleTemplates/00000000-0000-0000-0000-000000000000')
      .catch((e: unknown) => e);
    expect(isServiceError(error)).toBe(true);
    if (!isServiceError(error)) return;
    expect(error).toMatchObject({
      service: 'graph',
      statusCode: 404,
      code: 'Request_ResourceNotFound',
    });
    expect(error.message).toMatch(/does not exist/);
    expect(error.requestId).toMatch(/^[0-9a-f-]{36}$/);
    expect(
      await client().find('/directoryRoleTemplates/00000000-0000-0000-0000-000000000000'),
    ).toBeUndefined();
  });

  it('answers 401 for a token of no tenant', async () => {
    const error = await client('user:nobody')
      .get('/organization')
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ statusCode: 401, code: 'InvalidAuthenticationToken' });
  });

  it('retries a throttled request after Retry-After', async () => {
    sleeps.length = 0;
    world.setScenarios(tenant.tenantId, { throttle: { requests: 2, retryAfterInSeconds: 7 } });
    const organization = await new DirectoryClient(client()).organization();
    expect(organization.id).toBe(tenant.tenantId);
    expect(sleeps).toEqual([7000, 7000]);
  });

  it('gives up with a 429 ServiceError when throttling outlasts the retries', async () => {
    world.setScenarios(tenant.tenantId, { throttle: { requests: 10, retryAfterInSeconds: 1 } });
    const error = await client()
      .get('/organization')
      .catch((e: unknown) => e);
    world.setScenarios(tenant.tenantId, { throttle: null });
    expect(error).toMatchObject({ statusCode: 429, code: 'TooManyRequests', retryAfterInMs: 1000 });
  });

  it('batches 45 requests as 3 calls of at most 20, answers in order, failures as responses', async () => {
    const requests = Array.from({ length: 45 }, (_, i) => ({
      method: 'GET' as const,
      url:
        i === 44
          ? '/directoryRoleTemplates/00000000-0000-0000-0000-000000000000'
          : `/directoryRoleTemplates/${DIRECTORY_ROLE_TEMPLATE_IDS.globalAdministrator}?$select=displayName`,
    }));
    let calls = 0;
    const counting = new GraphClient({
      baseUrl: emulator.url,
      getToken: async () => delegatedToken(tenant),
      fetch: async (input, init) => {
        if (String(input).endsWith('/$batch')) calls += 1;
        return fetch(input, init);
      },
    });
    const responses = await counting.batch<{ displayName?: string }>(requests);
    expect(calls).toBe(3);
    expect(responses).toHaveLength(45);
    expect(responses.slice(0, 44).every((r) => r.status === 200)).toBe(true);
    expect(responses[0]?.body.displayName).toBe('Global Administrator');
    expect(responses[44]?.status).toBe(404);
    expect(batchError(responses[44]!)).toMatchObject({ code: 'Request_ResourceNotFound' });
  });

  it('resends throttled batch sub-requests after their Retry-After', async () => {
    sleeps.length = 0;
    // the batch call itself takes the first throttled answer, the first sub-request the second
    world.setScenarios(tenant.tenantId, { throttle: { requests: 2, retryAfterInSeconds: 3 } });
    const responses = await client().batch([
      { method: 'GET', url: '/organization' },
      { method: 'GET', url: '/domains' },
    ]);
    expect(responses.map((r) => r.status)).toEqual([200, 200]);
    expect(sleeps).toEqual([3000, 3000]);
  });
});

describe('DirectoryClient: the onboarding calls', () => {
  it('finds the enterprise app after consent and propagation, activates roles and adds members', async () => {
    const directory = new DirectoryClient(client());
    expect(await directory.findServicePrincipalByAppId(AEGIS_ENTERPRISE_APP.appId)).toBeUndefined();
    expect(
      world.adminConsent({ tenant: tenant.tenantId, clientId: AEGIS_ENTERPRISE_APP.appId }).ok,
    ).toBe(true);
    expect(await directory.findServicePrincipalByAppId(AEGIS_ENTERPRISE_APP.appId)).toBeUndefined();
    now += 2000;
    const sp = await directory.findServicePrincipalByAppId(AEGIS_ENTERPRISE_APP.appId);
    expect(sp).toMatchObject({
      displayName: 'Aegis - Deploy - Monitor - Fix',
      appOwnerOrganizationId: AEGIS_ENTERPRISE_APP.ownerTenantId,
    });
    expect(
      await directory.findServicePrincipalsByDisplayName('Aegis - Deploy - Monitor - Fix'),
    ).toHaveLength(1);

    const template = await directory.getDirectoryRoleTemplate(
      DIRECTORY_ROLE_TEMPLATE_IDS.exchangeAdministrator,
    );
    expect(template?.displayName).toBe('Exchange Administrator');
    const before = await directory.listDirectoryRoles();
    expect(before.map((r) => r.roleTemplateId)).not.toContain(
      DIRECTORY_ROLE_TEMPLATE_IDS.exchangeAdministrator,
    );
    const role = await directory.ensureDirectoryRole(
      DIRECTORY_ROLE_TEMPLATE_IDS.exchangeAdministrator,
    );
    expect(role.roleTemplateId).toBe(DIRECTORY_ROLE_TEMPLATE_IDS.exchangeAdministrator);
    expect(
      (await directory.ensureDirectoryRole(DIRECTORY_ROLE_TEMPLATE_IDS.exchangeAdministrator)).id,
    ).toBe(role.id);
    expect(await directory.addDirectoryRoleMember(role.id, sp!.id)).toBe('added');
    expect(await directory.addDirectoryRoleMember(role.id, sp!.id)).toBe('alreadyMember');
    const members = await client().list<{ id: string }>(`/directoryRoles/${role.id}/members`);
    expect(members.map((m) => m.id)).toEqual([sp!.id]);
  });

  it('slow propagation: the enterprise app is found only on the 4th search', async () => {
    const other = SIMULATED_TENANTS.find((t) => t.clientCode === 'LIT')!;
    world.setScenarios(other.tenantId, { servicePrincipalFoundOnSearch: 4 });
    world.adminConsent({ tenant: other.tenantId, clientId: AEGIS_ENTERPRISE_APP.appId });
    const directory = new DirectoryClient(client(delegatedToken(other)));
    const results = [];
    for (let i = 0; i < 4; i += 1)
      results.push(await directory.findServicePrincipalByAppId(AEGIS_ENTERPRISE_APP.appId));
    expect(results.map((r) => r !== undefined)).toEqual([false, false, false, true]);
    // consenting again (a retried journey) meets the same lag
    world.adminConsent({ tenant: other.tenantId, clientId: AEGIS_ENTERPRISE_APP.appId });
    const again = [];
    for (let i = 0; i < 4; i += 1)
      again.push(await directory.findServicePrincipalByAppId(AEGIS_ENTERPRISE_APP.appId));
    expect(again.map((r) => r !== undefined)).toEqual([false, false, false, true]);
    world.setScenarios(other.tenantId, { servicePrincipalFoundOnSearch: null });
  });

  it('one failing role: adding a member answers 403 Authorization_RequestDenied', async () => {
    world.setScenarios(tenant.tenantId, { failingRoleAssignment: 'Teams Administrator' });
    const directory = new DirectoryClient(client());
    const role = await directory.ensureDirectoryRole(
      DIRECTORY_ROLE_TEMPLATE_IDS.teamsAdministrator,
    );
    const error = await directory
      .addDirectoryRoleMember(role.id, tenant.globalAdministrator.oid)
      .catch((e: unknown) => e);
    world.setScenarios(tenant.tenantId, { failingRoleAssignment: null });
    expect(error).toMatchObject({ statusCode: 403, code: 'Authorization_RequestDenied' });
  });

  it('an app-only token cannot call /me', async () => {
    const error = await new DirectoryClient(client(appToken(tenant))).me().catch((e: unknown) => e);
    expect(error).toMatchObject({ statusCode: 400 });
  });
});
