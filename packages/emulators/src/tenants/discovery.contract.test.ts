// The discovery connector's contract suite (@aegis/connectors/testing, ADR 076) against the
// identity provider's per-tenant authorities, which serve the simulated tenants of the tenant
// emulator, and Graph/ARM of the tenant emulator with the provider's own tenant tokens.
import { describeDiscoveryContract } from '@aegis/connectors/testing';
import { afterAll, beforeAll } from 'vitest';

import { startIdentityProvider, type IdentityProvider } from '../identity';
import { tenantWorldDirectory } from '../identity/tenant-world-directory';

import { SIMULATED_TENANTS } from './registry';
import {
  TENANT_EMULATOR_AUDIENCES,
  buildTenantEmulator,
  jwksTenantTokenVerifier,
  listenTenantEmulator,
  type TenantEmulator,
} from './server';
import { TenantWorld } from './world';

const world = new TenantWorld();
let idp: IdentityProvider;
let emulator: TenantEmulator;
const litware = SIMULATED_TENANTS.find((t) => t.clientCode === 'LIT')!;
// adventureworks.com is not a verified domain of Adventure Works (adventure-works.de is)
const adventureWorks = SIMULATED_TENANTS.find((t) => t.clientCode === 'ADW')!;

beforeAll(async () => {
  idp = await startIdentityProvider({
    port: 0,
    audience: 'api://aegis-test',
    allowedOrigins: [],
    directory: tenantWorldDirectory(world),
  });
  emulator = await listenTenantEmulator(
    buildTenantEmulator({
      world,
      verifyToken: jwksTenantTokenVerifier({
        jwksUrl: idp.jwksUrl,
        audiences: TENANT_EMULATOR_AUDIENCES,
      }),
    }),
  );
});
afterAll(async () => {
  await emulator.close();
  await idp.close();
});

describeDiscoveryContract('the local identity provider', () => ({
  loginUrl: idp.url,
  graphUrl: emulator.url,
  armUrl: emulator.url,
  tenant: {
    tenantId: litware.tenantId,
    domain: 'litware.com',
    initialName: 'LITWARE',
    subscriptionNames: ['Litware Production'],
  },
  swapped: {
    tenantId: adventureWorks.tenantId,
    domain: 'adventureworks.com',
    initialDomain: 'adventureworks.onmicrosoft.com',
  },
  unknownDomain: 'unknown-client.example',
  issueToken: (tenantId, audience) => idp.issueTenantToken(tenantId, audience),
}));
