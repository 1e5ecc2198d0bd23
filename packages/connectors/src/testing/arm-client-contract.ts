// The ARM connector's contract (Microsoft's SDKs on Aegis's token, retry and timeout, ADR 058):
// subscriptions across pages, role assignments (201 / 200 / 409 RoleAssignmentExists), ARM's
// errors as ServiceErrors, throttling retried once by Aegis's retry. A suite to run against
// anything that answers as ARM does: the emulators run it against themselves (ADR 076).
import { describe, expect, it } from 'vitest';

import { AZURE_ROLE_IDS, ArmClient, type ArmClientOptions } from '../arm';
import { isServiceError } from '../shared';

/** What the suite needs of an ARM endpoint and of the tenant behind it. */
export interface ArmContractTarget {
  baseUrl: string;
  /** an ARM token of the tenant's Global Administrator */
  token: () => Promise<string>;
  tenantId: string;
  /** the display names of the tenant's subscriptions, 'Options IT' among them */
  subscriptionNames: readonly string[];
  /** how many subscriptions the endpoint answers per page */
  pageSize: number;
  /** the Global Administrator's object id */
  globalAdministratorId: string;
  /** the object id of a service principal of the tenant that roles may be assigned to */
  servicePrincipalId: () => Promise<string>;
  /** switches on the tenant: each call replaces the one before, `undefined` switches it off */
  scenarios: {
    /** hides the 'Options IT' subscription */
    noDefaultSubscription: (on: boolean) => void;
    /** assigning this role fails with 403 AuthorizationFailed */
    failingRoleAssignment: (role: 'Contributor' | undefined) => void;
    /** the next `requests` calls answer 429 with Retry-After `retryAfterInSeconds` */
    throttle: (requests: number, retryAfterInSeconds: number) => void;
  };
}

/** Runs the ArmClient contract against `target()` (read when each test runs). */
export function describeArmClientContract(name: string, target: () => ArmContractTarget): void {
  const sleeps: number[] = [];
  const sleep = (ms: number) => {
    sleeps.push(ms);
    return Promise.resolve();
  };
  const arm = (options: Partial<ArmClientOptions> = {}): ArmClient =>
    new ArmClient({
      baseUrl: target().baseUrl,
      getToken: target().token,
      retry: { sleep },
      ...options,
    });

  describe(`ArmClient against ${name}`, () => {
    it('follows nextLink across pages', async () => {
      const { subscriptionNames, pageSize } = target();
      const pages: number[] = [];
      const counting = arm({
        fetch: async (input, init) => {
          const response = await fetch(input, init);
          const body = (await response.clone().json()) as { value?: unknown[] };
          if (body.value) pages.push(body.value.length);
          return response;
        },
      });
      const subscriptions = await counting.listSubscriptions();
      expect(pages).toHaveLength(Math.ceil(subscriptionNames.length / pageSize));
      expect(pages.every((count) => count <= pageSize)).toBe(true);
      expect(subscriptions).toHaveLength(subscriptionNames.length);
    });

    it('lists subscriptions and finds Options IT by name', async () => {
      const subscriptions = await arm().listSubscriptions();
      expect(subscriptions.map((s) => s.displayName).sort()).toEqual(
        [...target().subscriptionNames].sort(),
      );
      expect((await arm().findSubscriptionByName('options it'))?.tenantId).toBe(target().tenantId);
    });

    it('no Options IT subscription scenario', async () => {
      target().scenarios.noDefaultSubscription(true);
      try {
        expect(await arm().findSubscriptionByName('Options IT')).toBeUndefined();
      } finally {
        target().scenarios.noDefaultSubscription(false);
      }
    });

    it('assigns a role under a new GUID; the same triple again is alreadyExists; same name updates', async () => {
      const subscription = (await arm().findSubscriptionByName('Options IT'))!;
      const input = {
        scope: subscription.id,
        roleDefinitionGuid: AZURE_ROLE_IDS.resourcePolicyContributor,
        principalId: await target().servicePrincipalId(),
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

      target().scenarios.failingRoleAssignment('Contributor');
      const denied = await arm()
        .createRoleAssignment({
          scope: subscription.id,
          roleDefinitionGuid: AZURE_ROLE_IDS.contributor,
          principalId: target().globalAdministratorId,
          principalType: 'User',
        })
        .catch((e: unknown) => e)
        .finally(() => target().scenarios.failingRoleAssignment(undefined));
      expect(denied).toMatchObject({ statusCode: 403, code: 'AuthorizationFailed' });

      const missing = await arm()
        .createRoleAssignment({
          scope: '/subscriptions/00000000-0000-0000-0000-000000000000',
          roleDefinitionGuid: AZURE_ROLE_IDS.reader,
          principalId: target().globalAdministratorId,
          principalType: 'User',
        })
        .catch((e: unknown) => e);
      expect(missing).toMatchObject({ statusCode: 404, code: 'SubscriptionNotFound' });
    });

    it('retries throttled calls after Retry-After', async () => {
      sleeps.length = 0;
      target().scenarios.throttle(1, 4);
      expect((await arm().listSubscriptions()).length).toBeGreaterThan(0);
      expect(sleeps).toEqual([4000]);
    });

    it("Aegis's retry is the only one: none allowed, a throttled call fails at once with ARM's 429", async () => {
      target().scenarios.throttle(1, 4);
      let requests = 0;
      const once = arm({
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
}
