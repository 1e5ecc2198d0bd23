// The Graph connector's contract: paging, $batch, $filter/$select, Graph's errors as ServiceErrors,
// throttling retried by Aegis's retry, and the onboarding directory calls (spec 2 §7). A suite to
// run against anything that answers as Graph does: the emulators run it against themselves (ADR 076).
import { describe, expect, it } from 'vitest';

import { DIRECTORY_ROLE_TEMPLATE_IDS, DirectoryClient, GraphClient, batchError } from '../graph';
import { isServiceError } from '../shared';

import { requestUrl } from './request-url';

/** A tenant behind the Graph endpoint, and what the suite may do in it. */
export interface GraphContractTenant {
  tenantId: string;
  /** a delegated Graph token of the tenant's Global Administrator */
  delegatedToken: string;
  /** an app-only Graph token of the Aegis app in the tenant */
  appToken: string;
  /** the Global Administrator's object id */
  globalAdministratorId: string;
  /** grants the Aegis app admin consent in the tenant; true when granted */
  consentAegisApp: () => boolean;
  /** lets the time pass that a consented app takes to show in Graph */
  propagate: () => void;
  /** switches on the tenant: each call replaces the one before, `undefined` switches it off */
  scenarios: {
    /** the next `requests` calls answer 429 with Retry-After `retryAfterInSeconds` */
    throttle: (requests: number | undefined, retryAfterInSeconds?: number) => void;
    /** adding a member to this directory role answers 403 */
    failingRoleAssignment: (role: string | undefined) => void;
    /** the consented app's service principal is found only on this search */
    servicePrincipalFoundOnSearch: (search: number | undefined) => void;
  };
}

/** What the suite needs of a Graph endpoint. */
export interface GraphContractTarget {
  /** Graph's base URL, answering the directory role templates in 3 pages or more */
  baseUrl: string;
  tenant: GraphContractTenant;
  /** another tenant, the Aegis app not consented there yet */
  otherTenant: GraphContractTenant;
  /** a token of no tenant */
  unknownToken: string;
  /** the Aegis multi-tenant app, as consent makes its service principal */
  aegisApp: { appId: string; displayName: string; ownerTenantId: string };
}

/** Runs the GraphClient and DirectoryClient contract against `target()` (read when each test runs). */
export function describeGraphClientContract(name: string, target: () => GraphContractTarget): void {
  const sleeps: number[] = [];
  const retry = {
    maxRetries: 3,
    sleep: (ms: number) => {
      sleeps.push(ms);
      return Promise.resolve();
    },
  };
  const client = (token = target().tenant.delegatedToken): GraphClient =>
    new GraphClient({ baseUrl: target().baseUrl, getToken: () => Promise.resolve(token), retry });

  describe(`GraphClient against ${name}`, () => {
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
          id: expect.any(String) as unknown,
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
      const error = await client(target().unknownToken)
        .get('/organization')
        .catch((e: unknown) => e);
      expect(error).toMatchObject({ statusCode: 401, code: 'InvalidAuthenticationToken' });
    });

    it('retries a throttled request after Retry-After', async () => {
      sleeps.length = 0;
      target().tenant.scenarios.throttle(2, 7);
      const organization = await new DirectoryClient(client()).organization();
      expect(organization.id).toBe(target().tenant.tenantId);
      expect(sleeps).toEqual([7000, 7000]);
    });

    it('gives up with a 429 ServiceError when throttling outlasts the retries', async () => {
      target().tenant.scenarios.throttle(10, 1);
      const error = await client()
        .get('/organization')
        .catch((e: unknown) => e);
      target().tenant.scenarios.throttle(undefined);
      expect(error).toMatchObject({
        statusCode: 429,
        code: 'TooManyRequests',
        retryAfterInMs: 1000,
      });
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
        baseUrl: target().baseUrl,
        getToken: () => Promise.resolve(target().tenant.delegatedToken),
        fetch: (input, init) => {
          if (requestUrl(input).endsWith('/$batch')) calls += 1;
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
      target().tenant.scenarios.throttle(2, 3);
      const responses = await client().batch([
        { method: 'GET', url: '/organization' },
        { method: 'GET', url: '/domains' },
      ]);
      expect(responses.map((r) => r.status)).toEqual([200, 200]);
      expect(sleeps).toEqual([3000, 3000]);
    });
  });

  describe(`DirectoryClient: the onboarding calls, against ${name}`, () => {
    it('finds the enterprise app after consent and propagation, activates roles and adds members', async () => {
      const directory = new DirectoryClient(client());
      const { tenant, aegisApp } = target();
      expect(await directory.findServicePrincipalByAppId(aegisApp.appId)).toBeUndefined();
      expect(tenant.consentAegisApp()).toBe(true);
      // consent shows in Graph only once it has propagated
      expect(await directory.findServicePrincipalByAppId(aegisApp.appId)).toBeUndefined();
      tenant.propagate();
      const sp = await directory.findServicePrincipalByAppId(aegisApp.appId);
      expect(sp).toMatchObject({
        displayName: aegisApp.displayName,
        appOwnerOrganizationId: aegisApp.ownerTenantId,
      });
      expect(await directory.findServicePrincipalsByDisplayName(aegisApp.displayName)).toHaveLength(
        1,
      );

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
      const { otherTenant: other, aegisApp } = target();
      other.scenarios.servicePrincipalFoundOnSearch(4);
      try {
        other.consentAegisApp();
        const directory = new DirectoryClient(client(other.delegatedToken));
        const results = [];
        for (let i = 0; i < 4; i += 1)
          results.push(await directory.findServicePrincipalByAppId(aegisApp.appId));
        expect(results.map((r) => r !== undefined)).toEqual([false, false, false, true]);
        // consenting again (a retried journey) meets the same lag
        other.consentAegisApp();
        const again = [];
        for (let i = 0; i < 4; i += 1)
          again.push(await directory.findServicePrincipalByAppId(aegisApp.appId));
        expect(again.map((r) => r !== undefined)).toEqual([false, false, false, true]);
      } finally {
        other.scenarios.servicePrincipalFoundOnSearch(undefined);
      }
    });

    it('one failing role: adding a member answers 403 Authorization_RequestDenied', async () => {
      const { tenant } = target();
      tenant.scenarios.failingRoleAssignment('Teams Administrator');
      const directory = new DirectoryClient(client());
      const role = await directory.ensureDirectoryRole(
        DIRECTORY_ROLE_TEMPLATE_IDS.teamsAdministrator,
      );
      const error = await directory
        .addDirectoryRoleMember(role.id, tenant.globalAdministratorId)
        .catch((e: unknown) => e)
        .finally(() => tenant.scenarios.failingRoleAssignment(undefined));
      expect(error).toMatchObject({ statusCode: 403, code: 'Authorization_RequestDenied' });
    });

    it('an app-only token cannot call /me', async () => {
      const error = await new DirectoryClient(client(target().tenant.appToken))
        .me()
        .catch((e: unknown) => e);
      expect(error).toMatchObject({ statusCode: 400 });
    });
  });
}
