// The discovery connector against the identity provider's per-tenant authorities, which serve the
// simulated tenants of the tenant emulator, and Graph/ARM with the provider's own tenant tokens.
import { ArmClient } from '@aegis/connectors/arm';
import { TenantDiscovery } from '@aegis/connectors/discovery';
import { DirectoryClient, GraphClient } from '@aegis/connectors/graph';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

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

describe('TenantDiscovery against the local identity provider', () => {
  const discovery = () => new TenantDiscovery({ loginUrl: idp.url });

  it('resolves a custom domain, an .onmicrosoft.com name and the .com swap', async () => {
    expect(await discovery().resolveTenantId('litware.com')).toBe(litware.tenantId);
    expect(await discovery().resolveTenantId('LITWARE')).toBe(litware.tenantId);
    expect(await discovery().discover('https://marcus.reed@litware.com/')).toMatchObject({
      tenantId: litware.tenantId,
      domain: 'litware.com',
    });
    // adventureworks.com is not a verified domain of Adventure Works (adventure-works.de is):
    // found through the .com swap, adventureworks.onmicrosoft.com
    const adventureWorks = SIMULATED_TENANTS.find((t) => t.clientCode === 'ADW')!;
    expect(await discovery().discover('adventureworks.com')).toMatchObject({
      tenantId: adventureWorks.tenantId,
      domain: 'adventureworks.onmicrosoft.com',
    });
    expect(await discovery().resolveTenantId('unknown-client.example')).toBeUndefined();
  });

  it("the provider's tenant tokens open Graph and ARM of that tenant only", async () => {
    const graphToken = await idp.issueTenantToken(litware.tenantId, 'https://graph.microsoft.com');
    const directory = new DirectoryClient(
      new GraphClient({ baseUrl: emulator.url, getToken: async () => graphToken }),
    );
    expect((await directory.organization()).id).toBe(litware.tenantId);
    const armToken = await idp.issueTenantToken(litware.tenantId, 'https://management.azure.com');
    const arm = new ArmClient({ baseUrl: emulator.url, getToken: async () => armToken });
    expect((await arm.listSubscriptions()).map((s) => s.displayName)).toEqual([
      'Litware Production',
    ]);
    const wrongAudience = new GraphClient({
      baseUrl: emulator.url,
      getToken: async () => idp.issueTenantToken(litware.tenantId, 'api://something-else'),
    });
    await expect(wrongAudience.get('/organization')).rejects.toMatchObject({ statusCode: 401 });
    // a Graph token does not open ARM
    const armWithGraphToken = new ArmClient({
      baseUrl: emulator.url,
      getToken: async () => graphToken,
    });
    await expect(armWithGraphToken.listSubscriptions()).rejects.toMatchObject({
      statusCode: 401,
      code: 'InvalidAuthenticationTokenAudience',
    });
  });
});
