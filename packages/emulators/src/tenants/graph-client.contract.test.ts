// The Graph connector's contract suite (@aegis/connectors/testing, ADR 076) against the tenant
// emulator: two directory role templates a page, consent propagating in 2 s of the world's clock.
import { describeGraphClientContract, type GraphContractTenant } from '@aegis/connectors/testing';
import { afterAll, beforeAll } from 'vitest';

import { SIMULATED_TENANTS, type SimulatedTenant } from './registry';
import type { TenantEmulator } from './server';
import { appToken, delegatedToken, startTestTenantEmulator } from './test-support';
import { AEGIS_ENTERPRISE_APP, TenantWorld } from './world';

const PROPAGATION_IN_MS = 2000;
let now = 5_000_000;
const world = new TenantWorld({ now: () => now, propagationDelayInMs: PROPAGATION_IN_MS });
let emulator: TenantEmulator;

beforeAll(async () => {
  emulator = await startTestTenantEmulator({ world, defaultPageSize: 2 });
});
afterAll(() => emulator.close());

function tenantOf(clientCode: string): GraphContractTenant {
  const tenant: SimulatedTenant = SIMULATED_TENANTS.find((t) => t.clientCode === clientCode)!;
  const set = (change: Parameters<TenantWorld['setScenarios']>[1]) =>
    void world.setScenarios(tenant.tenantId, change);
  return {
    tenantId: tenant.tenantId,
    delegatedToken: delegatedToken(tenant),
    appToken: appToken(tenant),
    globalAdministratorId: tenant.globalAdministrator.oid,
    consentAegisApp: () =>
      world.adminConsent({ tenant: tenant.tenantId, clientId: AEGIS_ENTERPRISE_APP.appId }).ok,
    propagate: () => {
      now += PROPAGATION_IN_MS;
    },
    scenarios: {
      throttle: (requests, retryAfterInSeconds = 1) =>
        set({ throttle: requests === undefined ? null : { requests, retryAfterInSeconds } }),
      failingRoleAssignment: (role) => set({ failingRoleAssignment: role ?? null }),
      servicePrincipalFoundOnSearch: (search) =>
        set({ servicePrincipalFoundOnSearch: search ?? null }),
    },
  };
}

describeGraphClientContract('the tenant emulator', () => ({
  baseUrl: emulator.url,
  tenant: tenantOf('ADW'),
  otherTenant: tenantOf('LIT'),
  unknownToken: 'user:nobody',
  aegisApp: AEGIS_ENTERPRISE_APP,
}));
