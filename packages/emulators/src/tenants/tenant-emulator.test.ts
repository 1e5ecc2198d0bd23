import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { SIMULATED_TENANTS, findSimulatedTenant } from './registry';
import type { TenantEmulator } from './server';
import { delegatedToken, startTestTenantEmulator } from './test-support';
import { AEGIS_ENTERPRISE_APP, TenantWorld } from './world';

const tenant = SIMULATED_TENANTS.find((t) => t.clientCode === 'TSP')!;
let now = 1_000_000;
const world = new TenantWorld({ now: () => now, propagationDelayInMs: 3000 });
let emulator: TenantEmulator;

/** The parts of a Graph or ARM response body these tests read. */
interface ResponseBody {
  value: { id: string; displayName: string; verifiedDomains: { name: string }[] }[];
  error: { code: string; innerError: Record<string, string> };
  '@odata.context': string;
  '@odata.nextLink': string;
}

async function call(path: string, init: RequestInit & { token?: string } = {}) {
  const response = await fetch(`${emulator.url}${path}`, {
    ...init,
    headers: {
      ...(init.token !== ''
        ? { authorization: `Bearer ${init.token ?? delegatedToken(tenant)}` }
        : {}),
      ...(init.body ? { 'content-type': 'application/json' } : {}),
    },
  });
  const text = await response.text();
  return {
    status: response.status,
    headers: response.headers,
    body: (text ? JSON.parse(text) : undefined) as ResponseBody,
  };
}

beforeAll(async () => {
  emulator = await startTestTenantEmulator({ world, defaultPageSize: 2 });
});
afterAll(() => emulator.close());

describe('the tenant registry', () => {
  it('has a tenant per sample client plus tenants not yet onboarded', () => {
    const codes = SIMULATED_TENANTS.map((t) => t.clientCode);
    expect(codes).toEqual(expect.arrayContaining(['ABC', 'CON', 'FAB', 'NWT', 'WWI']));
    expect(SIMULATED_TENANTS.filter((t) => !t.onboarded).length).toBeGreaterThanOrEqual(2);
    expect(new Set(SIMULATED_TENANTS.map((t) => t.tenantId)).size).toBe(SIMULATED_TENANTS.length);
    expect(findSimulatedTenant('ABCACCOUNTING.com')?.clientCode).toBe('ABC');
    expect(findSimulatedTenant('abcaccounting.onmicrosoft.com')?.clientCode).toBe('ABC');
    expect(findSimulatedTenant('nowhere.example')).toBeUndefined();
  });
});

describe('the tenant emulator', () => {
  it('answers 401 in Graph format without a token', async () => {
    const result = await call('/v1.0/organization', { token: '' });
    expect(result.status).toBe(401);
    expect(result.body.error.code).toBe('InvalidAuthenticationToken');
    expect(result.body.error.innerError['request-id']).toBe(result.headers.get('request-id'));
  });

  it('serves the organization of the token tenant', async () => {
    const result = await call('/v1.0/organization');
    expect(result.status).toBe(200);
    expect(result.body['@odata.context']).toBe(`${emulator.url}/v1.0/$metadata#organization`);
    expect(result.body.value[0]?.id).toBe(tenant.tenantId);
    expect(result.body.value[0]?.verifiedDomains.map((d) => d.name)).toEqual(tenant.domains);
  });

  it('pages by @odata.nextLink', async () => {
    const first = await call('/v1.0/servicePrincipals');
    expect(first.body.value).toHaveLength(2);
    const next = new URL(first.body['@odata.nextLink']);
    const second = await call(`${next.pathname}${next.search}`);
    expect(second.body.value).toHaveLength(2);
    expect(second.body.value[0]?.id).not.toBe(first.body.value[0]?.id);
  });

  it('creates the enterprise app by consent, visible only after the propagation delay', async () => {
    const filter = `?$filter=${encodeURIComponent(`appId eq '${AEGIS_ENTERPRISE_APP.appId}'`)}`;
    const consent = world.adminConsent({
      tenant: tenant.initialDomain,
      clientId: AEGIS_ENTERPRISE_APP.appId,
    });
    expect(consent).toMatchObject({ ok: true, tenantId: tenant.tenantId });
    expect((await call(`/v1.0/servicePrincipals${filter}`)).body.value).toEqual([]);
    now += 3000;
    const found = await call(`/v1.0/servicePrincipals${filter}&$select=id,appId,displayName`);
    expect(found.body.value).toEqual([
      {
        id: expect.any(String) as unknown,
        appId: AEGIS_ENTERPRISE_APP.appId,
        displayName: 'Aegis - Deploy - Monitor - Fix',
      },
    ]);
  });

  it('has the enterprise app in an onboarded tenant, found by name (the Global Admin tool)', async () => {
    const onboarded = SIMULATED_TENANTS.find((t) => t.clientCode === 'ABC')!;
    const notYet = SIMULATED_TENANTS.find((t) => t.clientCode === 'LIT')!;
    const filter = `?$filter=${encodeURIComponent("displayName eq 'Aegis - Deploy - Monitor - Fix'")}`;
    const inAbc = await call(`/v1.0/servicePrincipals${filter}`, {
      token: delegatedToken(onboarded),
    });
    expect(inAbc.body.value).toEqual([
      expect.objectContaining({ appId: AEGIS_ENTERPRISE_APP.appId, accountEnabled: true }),
    ]);
    const inLit = await call(`/v1.0/servicePrincipals${filter}`, { token: delegatedToken(notYet) });
    expect(inLit.body.value).toEqual([]);
  });
  it("answers Graph's alternate key /servicePrincipals(appId='…')", async () => {
    const found = await call(
      "/v1.0/servicePrincipals(appId='00000003-0000-0000-c000-000000000000')",
    );
    expect(found.body).toMatchObject({ displayName: 'Microsoft Graph' });
    const missing = await call(
      "/v1.0/servicePrincipals(appId='00000000-0000-0000-0000-000000000000')",
    );
    expect(missing.status).toBe(404);
    expect(missing.body.error.code).toBe('Request_ResourceNotFound');
  });

  it('reads one object back as the tenant holds it after a change; 404 for a name it lacks, 400 for no workload', async () => {
    const read = (query: string) => call(`/_emulator/tenants/ABC/objects?${query}`, { token: '' });
    const abc = findSimulatedTenant('ABC')!.tenantId;
    const policies = world.state(abc).workloadObjects({
      category: 'ConditionalAccess',
      kind: 'Policy',
    });
    const [key, policy] = [...policies].find(([, p]) => p['state'] === 'enabled')!;
    const name = policy['displayName'] as string;
    const change = (state: string) =>
      fetch(`${emulator.url}/_emulator/tenants/ABC/drift`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          workload: 'ConditionalAccess/Policy',
          object: name,
          set: { state },
        }),
      });
    expect((await change('disabled')).status).toBe(200);
    const back = await read(
      `workload=ConditionalAccess/Policy&object=${encodeURIComponent(name.toUpperCase())}`,
    );
    expect(back).toMatchObject({ status: 200, body: { id: policy['id'], state: 'disabled' } });
    expect((await read('workload=ConditionalAccess/Policy&object=nothing')).status).toBe(404);
    expect((await read('workload=Nothing/Here&object=x')).status).toBe(400);
    expect((await change('enabled')).status).toBe(200);
    expect(policies.get(key)?.['state']).toBe('enabled');
  });

  it('scenario: consent answers AADSTS1003031', async () => {
    const patch = await fetch(`${emulator.url}/_emulator/tenants/LIT/scenarios`, {
      method: 'PATCH',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ permissionsMisconfigured: true }),
    });
    expect(patch.status).toBe(200);
    const result = world.adminConsent({
      tenant: 'litware.com',
      clientId: AEGIS_ENTERPRISE_APP.appId,
    });
    expect(result).toMatchObject({ ok: false, error: 'access_denied' });
    expect(!result.ok && result.errorDescription).toMatch(/^AADSTS1003031:/);
  });

  it('scenario: throttling answers 429 with Retry-After, then serves', async () => {
    world.setScenarios(tenant.tenantId, { throttle: { requests: 1, retryAfterInSeconds: 2 } });
    const throttled = await call('/v1.0/organization');
    expect(throttled.status).toBe(429);
    expect(throttled.headers.get('retry-after')).toBe('2');
    expect(throttled.body.error.code).toBe('TooManyRequests');
    expect((await call('/v1.0/organization')).status).toBe(200);
  });

  it('lists subscriptions in ARM format and checks api-version', async () => {
    const missing = await call('/subscriptions');
    expect(missing.status).toBe(400);
    expect(missing.body.error.code).toBe('MissingApiVersionParameter');
    const result = await call('/subscriptions?api-version=2022-12-01');
    expect(result.body.value.map((s: { displayName: string }) => s.displayName)).toContain(
      'Options IT',
    );
  });
});
