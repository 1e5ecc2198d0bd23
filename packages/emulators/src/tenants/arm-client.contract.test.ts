// The ARM connector's contract suite (@aegis/connectors/testing, ADR 076) against the tenant
// emulator: one subscription a page, the tenant's scenarios switched through its world.
import { describeArmClientContract } from '@aegis/connectors/testing';
import { textOf } from '@aegis/domain';
import { afterAll, beforeAll } from 'vitest';

import { SIMULATED_TENANTS } from './registry';
import type { TenantEmulator } from './server';
import { delegatedToken, startTestTenantEmulator } from './test-support';
import { AEGIS_ENTERPRISE_APP, TenantWorld } from './world';

const tenant = SIMULATED_TENANTS.find((t) => t.clientCode === 'TSP')!;
const world = new TenantWorld({ propagationDelayInMs: 0 });
let emulator: TenantEmulator;

beforeAll(async () => {
  emulator = await startTestTenantEmulator({ world, defaultPageSize: 1 });
});
afterAll(() => emulator.close());

describeArmClientContract('the tenant emulator', () => ({
  baseUrl: emulator.url,
  token: () => Promise.resolve(delegatedToken(tenant)),
  tenantId: tenant.tenantId,
  subscriptionNames: tenant.subscriptions.map((s) => s.displayName),
  pageSize: 1,
  globalAdministratorId: tenant.globalAdministrator.oid,
  servicePrincipalId: () => {
    world.adminConsent({ tenant: tenant.tenantId, clientId: AEGIS_ENTERPRISE_APP.appId });
    const sp = world
      .state(tenant.tenantId)
      .objectsOfType('#microsoft.graph.servicePrincipal')
      .find((o) => o['appId'] === AEGIS_ENTERPRISE_APP.appId);
    if (!sp) return Promise.reject(new Error('admin consent made no Aegis service principal'));
    return Promise.resolve(textOf(sp['id']));
  },
  scenarios: {
    noDefaultSubscription: (on) =>
      void world.setScenarios(tenant.tenantId, { noDefaultSubscription: on }),
    failingRoleAssignment: (role) =>
      void world.setScenarios(tenant.tenantId, { failingRoleAssignment: role ?? null }),
    throttle: (requests, retryAfterInSeconds) =>
      void world.setScenarios(tenant.tenantId, { throttle: { requests, retryAfterInSeconds } }),
  },
}));
