// The ARM connector (Microsoft's SDKs on Aegis's token, retry and timeout, ADR 058) against the
// tenant emulator: subscriptions across pages, role assignments (201 / 200 / 409
// RoleAssignmentExists), ARM's errors as ServiceErrors, throttling retried once by Aegis's retry.
import { isServiceError } from '@aegis/connectors';
import { AZURE_ROLE_IDS, ArmClient } from '@aegis/connectors/arm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { SIMULATED_TENANTS } from './registry';
import type { TenantEmulator } from './server';
import { delegatedToken, startTestTenantEmulator } from './test-support';
import { AEGIS_ENTERPRISE_APP, TenantWorld } from './world';

const tenant = SIMULATED_TENANTS.find((t) => t.clientCode === 'TSP')!;
const world = new TenantWorld({ propagationDelayInMs: 0 });
let emulator: TenantEmulator;
const sleeps: number[] = [];
const sleep = async (ms: number) => void sleeps.push(ms);

function arm(token = delegatedToken(tenant)): ArmClient {
  return new ArmClient({
    baseUrl: emulator.url,
    getToken: async () => token,
    retry: { sleep },
  });
}

beforeAll(async () => {
  emulator = await startTestTenantEmulator({ world, defaultPageSize: 1 });
});
afterAll(() => emulator.close());

describe('ArmClient against the tenant emulator', () => {
  it('follows nextLink across pages', async () => {
    const pages: number[] = [];
    const counting = new ArmClient({
      baseUrl: emulator.url,
      getToken: async () => delegatedToken(tenant),
      fetch: async (input, init) => {
        const response = await fetch(input, init);
        const body = (await response.clone().json()) as { value?: unknown[] };
        if (body.value) pages.push(body.value.length);
        return response;
      },
    });
    const subscriptions = await counting.listSubscriptions();
    expect(pages).toEqual([1, 1]);
    expect(subscriptions).toHaveLength(tenant.subscriptions.length);
  });

  it('lists subscriptions and finds Options IT by name', async () => {
    const subscriptions = await arm().listSubscriptions();
    expect(subscriptions.map((s) => s.displayName).sort()).toEqual(
      tenant.subscriptions.map((s) => s.displayName).sort(),
    );
    expect((await arm().findSubscriptionByName('options it'))?.tenantId).toBe(tenant.tenantId);
  });

  it('no Options IT subscription scenario', async () => {
    world.setScenarios(tenant.tenantId, { noDefaultSubscription: true });
    expect(await arm().findSubscriptionByName('Options IT')).toBeUndefined();
    world.setScenarios(tenant.tenantId, { noDefaultSubscription: false });
  });

  it('assigns a role under a new GUID; the same triple again is alreadyExists; same name updates', async () => {
    world.adminConsent({ tenant: tenant.tenantId, clientId: AEGIS_ENTERPRISE_APP.appId });
    const sp = world
      .state(tenant.tenantId)
      .objectsOfType('#microsoft.graph.servicePrincipal')
      .find((o) => o['appId'] === AEGIS_ENTERPRISE_APP.appId)!;
    const subscription = (await arm().findSubscriptionByName('Options IT'))!;
    const input = {
      scope: subscription.id,
      roleDefinitionGuid: AZURE_ROLE_IDS.resourcePolicyContributor,
      principalId: String(sp['id']),
      principalType: 'ServicePrincipal' as const,
    };
    const first = await arm().createRoleAssignment(input);
    expect(first.status).toBe('created');
    if (first.status === 'alreadyExists') return;
    expect(first.assignment.roleDefinitionId).toMatch(
      new RegExp(`${AZURE_ROLE_IDS.resourcePolicyContributor}$`),
    );
    expect(await arm().createRoleAssignment(input)).toEqual({ status: 'alreadyExists' });
    expect(
      (await arm().createRoleAssignment({ ...input, name: first.assignment.name })).status,
    ).toBe('updated');
  });

  it('keeps ARM error codes: unknown principal, failing role scenario, unknown subscription', async () => {
    const subscription = (await arm().findSubscriptionByName('Options IT'))!;
    const unknown = await arm()
      .createRoleAssignment({
        scope: subscription.id,
        roleDefinitionGuid: AZURE_ROLE_IDS.reader,
        principalId: '11111111-2222-4333-8444-555555555555',
        principalType: 'ServicePrincipal',
      })
      .catch((e: unknown) => e);
    expect(unknown).toMatchObject({ service: 'arm', statusCode: 400, code: 'PrincipalNotFound' });
    expect(isServiceError(unknown) && unknown.requestId).toMatch(/^[0-9a-f-]{36}$/);

    world.setScenarios(tenant.tenantId, { failingRoleAssignment: 'Contributor' });
    const denied = await arm()
      .createRoleAssignment({
        scope: subscription.id,
        roleDefinitionGuid: AZURE_ROLE_IDS.contributor,
        principalId: tenant.globalAdministrator.oid,
        principalType: 'User',
      })
      .catch((e: unknown) => e);
    world.setScenarios(tenant.tenantId, { failingRoleAssignment: null });
    expect(denied).toMatchObject({ statusCode: 403, code: 'AuthorizationFailed' });

    const missing = await arm()
      .createRoleAssignment({
        scope: '/subscriptions/00000000-0000-0000-0000-000000000000',
        roleDefinitionGuid: AZURE_ROLE_IDS.reader,
        principalId: tenant.globalAdministrator.oid,
        principalType: 'User',
      })
      .catch((e: unknown) => e);
    expect(missing).toMatchObject({ statusCode: 404, code: 'SubscriptionNotFound' });
  });

  it('retries throttled calls after Retry-After', async () => {
    sleeps.length = 0;
    world.setScenarios(tenant.tenantId, { throttle: { requests: 1, retryAfterInSeconds: 4 } });
    expect((await arm().listSubscriptions()).length).toBeGreaterThan(0);
    expect(sleeps).toEqual([4000]);
  });

  it("Aegis's retry is the only one: none allowed, a throttled call fails at once with ARM's 429", async () => {
    world.setScenarios(tenant.tenantId, { throttle: { requests: 1, retryAfterInSeconds: 4 } });
    let requests = 0;
    const once = new ArmClient({
      baseUrl: emulator.url,
      getToken: async () => delegatedToken(tenant),
      retry: { maxRetries: 0, sleep },
      fetch: async (input, init) => {
        requests += 1;
        return fetch(input, init);
      },
    });
    await expect(once.listSubscriptions()).rejects.toMatchObject({
      service: 'arm',
      statusCode: 429,
      retryAfterInMs: 4000,
    });
    expect(requests).toBe(1);
  });
});
