// The discovery connector's contract: a tenant found by its custom domain, its .onmicrosoft.com
// name and the .com swap, through the login authority's OpenID configuration; the authority's
// tenant tokens open Graph and ARM of that tenant only, each service its own audience. A suite to
// run against anything that answers as Entra ID does: the emulators run it against themselves
// (ADR 076).
import { describe, expect, it } from 'vitest';

import { ArmClient } from '../arm';
import { TenantDiscovery } from '../discovery';
import { DirectoryClient, GraphClient } from '../graph';

/** What the suite needs of a login authority, the tenants it serves and their Graph and ARM. */
export interface DiscoveryContractTarget {
  loginUrl: string;
  graphUrl: string;
  armUrl: string;
  /** a tenant with a verified custom domain */
  tenant: {
    tenantId: string;
    /** its verified custom domain, e.g. litware.com */
    domain: string;
    /** the name before .onmicrosoft.com, e.g. LITWARE */
    initialName: string;
    /** the display names of its subscriptions */
    subscriptionNames: readonly string[];
  };
  /** a tenant found only through the .com swap: `domain` is not verified, `{name}.onmicrosoft.com` is */
  swapped: { tenantId: string; domain: string; initialDomain: string };
  /** a domain no tenant has */
  unknownDomain: string;
  /** a token the authority issues for `tenantId` with audience `audience` */
  issueToken: (tenantId: string, audience: string) => Promise<string>;
}

const GRAPH_AUDIENCE = 'https://graph.microsoft.com';
const ARM_AUDIENCE = 'https://management.azure.com';

/** Runs the TenantDiscovery contract against `target()` (read when each test runs). */
export function describeDiscoveryContract(name: string, target: () => DiscoveryContractTarget) {
  describe(`TenantDiscovery against ${name}`, () => {
    const discovery = () => new TenantDiscovery({ loginUrl: target().loginUrl });

    it('resolves a custom domain, an .onmicrosoft.com name and the .com swap', async () => {
      const { tenant, swapped, unknownDomain } = target();
      expect(await discovery().resolveTenantId(tenant.domain)).toBe(tenant.tenantId);
      expect(await discovery().resolveTenantId(tenant.initialName)).toBe(tenant.tenantId);
      expect(await discovery().discover(`https://someone@${tenant.domain}/`)).toMatchObject({
        tenantId: tenant.tenantId,
        domain: tenant.domain,
      });
      expect(await discovery().discover(swapped.domain)).toMatchObject({
        tenantId: swapped.tenantId,
        domain: swapped.initialDomain,
      });
      expect(await discovery().resolveTenantId(unknownDomain)).toBeUndefined();
    });

    it("the authority's tenant tokens open Graph and ARM of that tenant only", async () => {
      const { tenant, graphUrl, armUrl, issueToken } = target();
      const graphToken = await issueToken(tenant.tenantId, GRAPH_AUDIENCE);
      const directory = new DirectoryClient(
        new GraphClient({ baseUrl: graphUrl, getToken: () => Promise.resolve(graphToken) }),
      );
      expect((await directory.organization()).id).toBe(tenant.tenantId);
      const armToken = await issueToken(tenant.tenantId, ARM_AUDIENCE);
      const arm = new ArmClient({ baseUrl: armUrl, getToken: () => Promise.resolve(armToken) });
      expect((await arm.listSubscriptions()).map((s) => s.displayName)).toEqual(
        tenant.subscriptionNames,
      );
      const wrongAudience = new GraphClient({
        baseUrl: graphUrl,
        getToken: () => issueToken(tenant.tenantId, 'api://something-else'),
      });
      await expect(wrongAudience.get('/organization')).rejects.toMatchObject({ statusCode: 401 });
      // a Graph token does not open ARM
      const armWithGraphToken = new ArmClient({
        baseUrl: armUrl,
        getToken: () => Promise.resolve(graphToken),
      });
      await expect(armWithGraphToken.listSubscriptions()).rejects.toMatchObject({
        statusCode: 401,
        code: 'InvalidAuthenticationTokenAudience',
      });
    });
  });
}
