import { Writable } from 'node:stream';

import { READER_ROLE, type AuditEvent } from '@aegis/domain';
import {
  startIdentityProvider,
  type IdentityProvider,
  type TenantDirectory,
} from '@aegis/emulators';
import type { FastifyInstance } from 'fastify';
import { decodeJwt } from 'jose';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';

import { buildApp, loadConfig } from '../../src';
import type {
  ClientTenantArm,
  ClientTenantGraph,
} from '../../src/services/client-tenant-onboarding';
import { SAMPLE_USER, TEST_AUDIENCE } from '../helper';

/** What the server logged: audit events are logged as they are stored. */
const logLines: string[] = [];
const APP_ID = '3f2e1d0c-9b8a-4765-8432-10fedcba9876';
const SECRET = 'test-secret';
const TENANT = '6a0f3c2e-8b7d-4e1a-9c3b-2d4e5f6a7b8c';
const OTHER_TENANT = '0b1c2d3e-4f50-4617-8293-a4b5c6d7e8f9';
const SP = { id: 'sp-object-id', appId: APP_ID, displayName: 'Aegis - Deploy - Monitor - Fix' };

const directory: TenantDirectory = {
  tenants: () =>
    [TENANT, OTHER_TENANT].map((tenantId, index) => ({
      tenantId,
      displayName: `Tenant ${index}`,
      domains: [`tenant${index}.onmicrosoft.com`, `tenant${index}.com`],
      globalAdministrators: [
        {
          oid: `0000000${index}-0000-4000-8000-000000000000`,
          upn: `admin@tenant${index}.com`,
          displayName: 'Admin',
        },
      ],
    })),
  grantAdminConsent: () => ({ granted: true }),
};

interface World {
  servicePrincipals: (typeof SP)[];
  subscriptions: { subscriptionId: string; displayName: string }[];
  activeRoles: { id: string; roleTemplateId: string; displayName: string }[];
  assigned: string[];
  failRole?: string;
  graphTokens: string[];
  armTokens: string[];
  graphStatus?: number;
  /** a call that fails, with what the service said */
  failing?: {
    call:
      | 'listSubscriptions'
      | 'listDirectoryRoles'
      | 'activateDirectoryRole'
      | 'assignSubscriptionRole';
    message: string;
    arg?: string;
  };
}

function failIf(call: NonNullable<World['failing']>['call'], arg?: string): void {
  const failing = world.failing;
  if (failing?.call === call && (failing.arg === undefined || failing.arg === arg))
    throw new Error(failing.message);
}
let world: World;

function fakeApis(session: { graphToken(): Promise<string>; armToken(): Promise<string> }) {
  const graph: ClientTenantGraph = {
    async findServicePrincipals(filter) {
      world.graphTokens.push(await session.graphToken());
      if (world.graphStatus) {
        const { ServiceError } = await import('@aegis/connectors');
        throw new ServiceError('Access token has expired.', {
          service: 'graph',
          statusCode: world.graphStatus,
          code: 'InvalidAuthenticationToken',
        });
      }
      return world.servicePrincipals.filter((sp) =>
        'appId' in filter ? sp.appId === filter.appId : sp.displayName === filter.displayName,
      );
    },
    async listDirectoryRoles() {
      failIf('listDirectoryRoles');
      return world.activeRoles;
    },
    async activateDirectoryRole(roleTemplateId) {
      failIf('activateDirectoryRole', roleTemplateId);
      const role = { id: `role-${roleTemplateId}`, roleTemplateId, displayName: roleTemplateId };
      world.activeRoles.push(role);
      return role;
    },
    async addDirectoryRoleMember(roleId, principalId) {
      if (world.failRole && roleId.includes(world.failRole))
        throw new Error('Insufficient privileges');
      world.assigned.push(`${roleId}:${principalId}`);
    },
  };
  const arm: ClientTenantArm = {
    async listSubscriptions() {
      world.armTokens.push(await session.armToken());
      failIf('listSubscriptions');
      return world.subscriptions;
    },
    async assignSubscriptionRole(subscriptionId, role, principalId) {
      failIf('assignSubscriptionRole', role);
      world.assigned.push(`${subscriptionId}:${role}:${principalId}`);
    },
  };
  return { graph, arm };
}

let idp: IdentityProvider;
let app: FastifyInstance;

beforeAll(async () => {
  idp = await startIdentityProvider({
    port: 0,
    audience: TEST_AUDIENCE,
    allowedOrigins: [],
    directory,
    applications: [
      {
        clientId: APP_ID,
        displayName: SP.displayName,
        clientSecret: SECRET,
        apiAudience: TEST_AUDIENCE,
        permissions: [],
      },
    ],
  });
  const config = loadConfig({
    AEGIS_LOG_LEVEL: 'silent',
    AEGIS_AUTH_MODE: 'local',
    AEGIS_AUTH_JWKS_URL: idp.jwksUrl,
    AEGIS_AUTH_ISSUER: idp.issuer,
    AEGIS_AUTH_AUDIENCE: TEST_AUDIENCE,
    AEGIS_LOCAL_IDP_URL: idp.url,
    AEGIS_LOGIN_URL: idp.url,
    AEGIS_APP_CLIENT_ID: APP_ID,
    AEGIS_APP_CLIENT_SECRET: SECRET,
    AEGIS_APP_ID_URI: TEST_AUDIENCE,
    AEGIS_DEVOPS_ORG_URL: 'http://127.0.0.1:9/unused',
  });
  app = await buildApp({
    config,
    createClientTenantApis: fakeApis,
    logLevel: 'info',
    logStream: new Writable({
      write(chunk: Buffer, _encoding, done) {
        logLines.push(chunk.toString());
        done();
      },
    }),
  });
  await app.ready();
});
afterAll(async () => {
  await app.close();
  await idp.close();
});
beforeEach(() => {
  world = {
    servicePrincipals: [SP],
    subscriptions: [
      { subscriptionId: 'sub-1', displayName: 'Options IT' },
      { subscriptionId: 'sub-2', displayName: 'Development' },
    ],
    activeRoles: [
      {
        id: 'role-ga',
        roleTemplateId: '62e90394-69f5-4237-9190-012177145e10',
        displayName: 'Global Administrator',
      },
    ],
    assigned: [],
    graphTokens: [],
    armTokens: [],
  };
});

async function inject(
  options: { method: 'GET' | 'POST'; url: string; payload?: Record<string, unknown> },
  who: { staff?: boolean; tenant?: string } = { staff: true, tenant: TENANT },
) {
  const headers: Record<string, string> = {};
  if (who.staff) headers.authorization = `Bearer ${await idp.issueToken(SAMPLE_USER)}`;
  if (who.tenant)
    headers['x-client-tenant-authorization'] =
      `Bearer ${await idp.issueTenantToken(who.tenant, TEST_AUDIENCE)}`;
  return app.inject({ ...options, headers });
}

describe('onboarding routes', () => {
  it('finds the enterprise app with a Graph token obtained on-behalf-of the Global Administrator', async () => {
    const response = await inject({ method: 'GET', url: '/api/onboarding/enterprise-app' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 'found', servicePrincipal: SP });
    const claims = decodeJwt(world.graphTokens[0] ?? '');
    expect(claims.aud).toBe('https://graph.microsoft.com');
    expect(claims.tid).toBe(TENANT);
    expect(claims.upn).toBe('admin@tenant0.com');
  });

  it('answers not-found and unauthorized as values, so the browser decides to retry or stop', async () => {
    world.servicePrincipals = [];
    expect((await inject({ method: 'GET', url: '/api/onboarding/enterprise-app' })).json()).toEqual(
      { status: 'not-found' },
    );
    world.graphStatus = 401;
    expect((await inject({ method: 'GET', url: '/api/onboarding/enterprise-app' })).json()).toEqual(
      { status: 'unauthorized' },
    );
    world.graphStatus = 503;
    expect(
      (await inject({ method: 'GET', url: '/api/onboarding/enterprise-app' })).json(),
    ).toMatchObject({ status: 'error', httpStatus: 503 });
  });

  it('refuses without the Global Administrator token (403) and without a staff token (401)', async () => {
    expect(
      (await inject({ method: 'GET', url: '/api/onboarding/enterprise-app' }, { staff: true }))
        .statusCode,
    ).toBe(403);
    expect(
      (await inject({ method: 'GET', url: '/api/onboarding/enterprise-app' }, { tenant: TENANT }))
        .statusCode,
    ).toBe(401);
  });

  it('assigns every role, activating directory roles from their template, on the chosen subscription', async () => {
    const response = await inject({
      method: 'POST',
      url: '/api/onboarding/roles',
      payload: { subscriptionName: 'Options IT' },
    });
    expect(response.statusCode).toBe(200);
    const body = response.json<{
      statuses: { ok: boolean }[];
      allRolesAssigned: boolean;
      tenantId: string;
    }>();
    expect(body.statuses).toHaveLength(8);
    expect(body.statuses.every((s) => s.ok)).toBe(true);
    expect(body.allRolesAssigned).toBe(true);
    expect(body.tenantId).toBe(TENANT);
    expect(world.assigned).toContain('sub-1:acdd72a7-3385-48ef-bd42-f606fba81ae7:sp-object-id');
    expect(world.assigned).toContain('role-ga:sp-object-id');
    expect(world.activeRoles.map((r) => r.roleTemplateId)).toContain(
      '29232cdf-9323-42fd-ade2-1d097af3e4de',
    );
    expect(decodeJwt(world.armTokens[0] ?? '').aud).toBe('https://management.azure.com');
  });

  it('lists the available subscriptions when the chosen one is missing, and never completes', async () => {
    const response = await inject({
      method: 'POST',
      url: '/api/onboarding/roles',
      payload: { subscriptionName: 'Litware Production' },
    });
    const body = response.json<{
      statuses: { role: string; ok: boolean; message: string }[];
      allRolesAssigned: boolean;
    }>();
    const reader = body.statuses.find((s) => s.role === 'Reader');
    expect(reader).toMatchObject({ ok: false });
    expect(reader?.message).toContain('Options IT, Development');
    expect(body.statuses.find((s) => s.role === 'Teams Administrator')?.ok).toBe(true);
    expect(body.allRolesAssigned).toBe(false);
  });

  it('keeps going after one role fails and reports it', async () => {
    world.failRole = '69091246';
    const body = (
      await inject({
        method: 'POST',
        url: '/api/onboarding/roles',
        payload: { subscriptionName: 'Options IT' },
      })
    ).json<{
      statuses: { role: string; ok: boolean; message: string }[];
      allRolesAssigned: boolean;
    }>();
    expect(body.statuses.find((s) => s.role === 'Teams Administrator')).toEqual({
      role: 'Teams Administrator',
      ok: false,
      message: 'Insufficient privileges',
    });
    expect(body.statuses.find((s) => s.role === 'Exchange Administrator')?.ok).toBe(true);
    expect(body.allRolesAssigned).toBe(false);
  });

  it.each([
    [
      'listing the subscriptions',
      {
        call: 'listSubscriptions',
        message:
          "The client does not have authorization to perform action 'Microsoft.Resources/subscriptions/read'.",
      },
      ['Reader', 'Resource Policy Contributor', 'Contributor'],
    ],
    [
      'assigning one subscription role',
      {
        call: 'assignSubscriptionRole',
        arg: '36243c78-bf99-498c-9df9-86d9f8d28608',
        message: 'RoleAssignmentLimitExceeded',
      },
      ['Resource Policy Contributor'],
    ],
    [
      'listing the directory roles',
      { call: 'listDirectoryRoles', message: 'Service unavailable' },
      [
        'Teams Administrator',
        'Global Administrator',
        'Exchange Administrator',
        'Authentication Policy Administrator',
        'Privileged Authentication Administrator',
      ],
    ],
    [
      'activating one directory role from its template',
      {
        call: 'activateDirectoryRole',
        arg: '29232cdf-9323-42fd-ade2-1d097af3e4de',
        message: 'Insufficient privileges to complete the operation.',
      },
      ['Exchange Administrator'],
    ],
  ] as const)(
    'a failure %s fails those roles with its message, and only those',
    async (_what, failing, roles) => {
      world.failing = failing;
      const response = await inject({
        method: 'POST',
        url: '/api/onboarding/roles',
        payload: { subscriptionName: 'Options IT' },
      });
      expect(response.statusCode).toBe(200);
      const body = response.json<{
        statuses: { role: string; ok: boolean; message: string }[];
        allRolesAssigned: boolean;
      }>();
      expect(body.statuses).toHaveLength(8);
      expect(body.statuses.filter((s) => !s.ok)).toEqual(
        roles.map((role) => ({ role, ok: false, message: failing.message })),
      );
      expect(body.allRolesAssigned).toBe(false);
    },
  );

  it('answers 404 Enterprise App not found when consent never created it', async () => {
    world.servicePrincipals = [];
    const response = await inject({
      method: 'POST',
      url: '/api/onboarding/roles',
      payload: { subscriptionName: 'Options IT' },
    });
    expect(response.statusCode).toBe(404);
    expect(response.json<{ message: string }>().message).toBe('Enterprise App not found');
  });

  it('names the field of a bad request', async () => {
    const response = await inject({ method: 'POST', url: '/api/onboarding/roles', payload: {} });
    expect(response.statusCode).toBe(400);
    expect(response.json<{ field: string }>().field).toContain('subscriptionName');
  });

  it("gives Reader on 'Options IT' from the open Global Admin tool, without an Aegis sign-in", async () => {
    const response = await inject(
      {
        method: 'POST',
        url: '/api/onboarding/global-admin/reader',
        payload: { enterpriseAppName: SP.displayName },
      },
      { tenant: OTHER_TENANT },
    );
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      servicePrincipalId: SP.id,
      subscriptionId: 'sub-1',
      subscriptionName: 'Options IT',
    });
    expect(world.assigned).toEqual([`sub-1:${READER_ROLE.id}:${SP.id}`]);
    const missingApp = await inject(
      {
        method: 'POST',
        url: '/api/onboarding/global-admin/reader',
        payload: { enterpriseAppName: 'Nope' },
      },
      { tenant: OTHER_TENANT },
    );
    expect(missingApp.statusCode).toBe(404);
    world.subscriptions = [{ subscriptionId: 'sub-2', displayName: 'Development' }];
    const missingSubscription = await inject(
      {
        method: 'POST',
        url: '/api/onboarding/global-admin/reader',
        payload: { enterpriseAppName: SP.displayName },
      },
      { tenant: OTHER_TENANT },
    );
    expect(missingSubscription.statusCode).toBe(404);
    expect(missingSubscription.json<{ message: string }>().message).toBe(
      "Subscription 'Options IT' not found. Available subscriptions: Development",
    );
    expect(world.assigned).toHaveLength(1);
    const noToken = await inject(
      {
        method: 'POST',
        url: '/api/onboarding/global-admin/reader',
        payload: { enterpriseAppName: 'x' },
      },
      {},
    );
    expect(noToken.statusCode).toBe(403);

    // every call is audited with the Global Administrator as the actor (issue 26 §2)
    const audited = logLines
      .map((line) => JSON.parse(line) as { msg: string; audit?: AuditEvent })
      .filter((entry) => entry.msg === 'audit' && entry.audit?.action.includes('global-admin'))
      .map((entry) => entry.audit!);
    expect(audited.map((event) => event.result.statusCode)).toEqual([200, 404, 404]);
    expect(audited[0]).toMatchObject({
      actor: {
        upn: 'admin@tenant1.com',
        roles: [`Global Administrator of tenant ${OTHER_TENANT}`],
      },
      action: 'POST /api/onboarding/global-admin/reader',
      parameters: { body: { enterpriseAppName: SP.displayName } },
    });
  });

  it('resolves a tenant id from a domain through the discovery documents', async () => {
    const found = await inject({
      method: 'GET',
      url: '/api/onboarding/tenant-id?domain=tenant1.com',
    });
    expect(found.json()).toEqual({ tenantId: OTHER_TENANT, resolvedFrom: 'tenant1.com' });
    // 'tenant0' alone is no domain; '+ .onmicrosoft.com' is.
    const swapped = await inject({
      method: 'GET',
      url: '/api/onboarding/tenant-id?domain=tenant0',
    });
    expect(swapped.json()).toEqual({ tenantId: TENANT, resolvedFrom: 'tenant0.onmicrosoft.com' });
    const unknown = await inject({
      method: 'GET',
      url: '/api/onboarding/tenant-id?domain=nowhere.com',
    });
    expect(unknown.json()).toEqual({ tenantId: null, resolvedFrom: null });
    const bad = await inject({ method: 'GET', url: '/api/onboarding/tenant-id?domain=a%20b' });
    expect(bad.statusCode).toBe(400);
  });

  it('publishes where client tenants sign in and consent', async () => {
    const response = await app.inject({ method: 'GET', url: '/auth-config.json' });
    expect(response.json()).toMatchObject({
      clientTenants: {
        loginUrl: idp.url,
        clientId: APP_ID,
        apiScope: `${TEST_AUDIENCE}/user_impersonation`,
      },
    });
  });
});
