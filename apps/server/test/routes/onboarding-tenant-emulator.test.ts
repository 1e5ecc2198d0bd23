import {
  aegisAppRegistration,
  buildTenantEmulator,
  jwksTenantTokenVerifier,
  listenTenantEmulator,
  startIdentityProvider,
  TENANT_EMULATOR_AUDIENCES,
  TenantWorld,
  tenantWorldDirectory,
  type IdentityProvider,
  type TenantEmulator,
} from '@aegis/emulators';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';

import { buildApp, loadConfig } from '../../src';
import { SAMPLE_USER, TEST_AUDIENCE } from '../helper';

/**
 * The onboarding routes wired as `npm start` wires them: the identity provider's tenant
 * authorities, on-behalf-of to the tenant emulator's Graph and ARM, its scenario switches.
 */
let world: TenantWorld;
let idp: IdentityProvider;
let tenants: TenantEmulator;
let app: FastifyInstance;
const aegisApp = aegisAppRegistration(TEST_AUDIENCE);
const tailspin = () => {
  const tenant = world.find('TSP');
  if (!tenant) throw new Error('no TSP tenant');
  return tenant;
};

beforeAll(async () => {
  world = new TenantWorld({ propagationDelayInMs: 0 });
  idp = await startIdentityProvider({
    port: 0,
    audience: TEST_AUDIENCE,
    allowedOrigins: [],
    directory: tenantWorldDirectory(world),
    applications: [aegisApp],
  });
  tenants = await listenTenantEmulator(
    buildTenantEmulator({
      world,
      verifyToken: jwksTenantTokenVerifier({
        jwksUrl: idp.jwksUrl,
        audiences: TENANT_EMULATOR_AUDIENCES,
      }),
    }),
    { port: 0 },
  );
  const config = loadConfig({
    AEGIS_LOG_LEVEL: 'silent',
    AEGIS_AUTH_MODE: 'local',
    AEGIS_AUTH_JWKS_URL: idp.jwksUrl,
    AEGIS_AUTH_ISSUER: idp.issuer,
    AEGIS_AUTH_AUDIENCE: TEST_AUDIENCE,
    AEGIS_LOCAL_IDP_URL: idp.url,
    AEGIS_LOGIN_URL: idp.url,
    AEGIS_GRAPH_URL: tenants.graphUrl.replace(/\/v1\.0$/, ''),
    AEGIS_ARM_URL: tenants.armUrl,
    AEGIS_APP_CLIENT_ID: aegisApp.clientId,
    AEGIS_APP_CLIENT_SECRET: aegisApp.clientSecret,
    AEGIS_APP_ID_URI: TEST_AUDIENCE,
    AEGIS_DEVOPS_ORG_URL: 'http://127.0.0.1:9/unused',
  });
  app = await buildApp({ config });
  await app.ready();
});
afterAll(async () => {
  await app.close();
  await tenants.close();
  await idp.close();
});
beforeEach(() => world.reset());

async function asGlobalAdmin(
  method: 'GET' | 'POST',
  url: string,
  payload?: Record<string, string>,
) {
  return app.inject({
    method,
    url,
    ...(payload ? { payload } : {}),
    headers: {
      authorization: `Bearer ${await idp.issueToken(SAMPLE_USER)}`,
      'x-client-tenant-authorization': `Bearer ${await idp.issueTenantToken(tailspin().tenantId, TEST_AUDIENCE)}`,
    },
  });
}

describe('onboarding against the tenant emulator', () => {
  it('does not find the enterprise app before consent, finds it after, and assigns every role', async () => {
    expect((await asGlobalAdmin('GET', '/api/onboarding/enterprise-app')).json()).toEqual({
      status: 'not-found',
    });
    const consent = world.adminConsent({
      tenant: tailspin().tenantId,
      clientId: aegisApp.clientId,
    });
    expect(consent.ok).toBe(true);
    const found = (await asGlobalAdmin('GET', '/api/onboarding/enterprise-app')).json<{
      status: string;
      servicePrincipal: { appId: string };
    }>();
    expect(found.status).toBe('found');
    expect(found.servicePrincipal.appId).toBe(aegisApp.clientId);

    const roles = await asGlobalAdmin('POST', '/api/onboarding/roles', {
      subscriptionName: 'Options IT',
    });
    expect(roles.statusCode).toBe(200);
    expect(roles.json<{ allRolesAssigned: boolean }>().allRolesAssigned).toBe(true);
    // Assigning again is no error: existing assignments and memberships count as success.
    const again = await asGlobalAdmin('POST', '/api/onboarding/roles', {
      subscriptionName: 'Options IT',
    });
    expect(again.json<{ allRolesAssigned: boolean }>().allRolesAssigned).toBe(true);
  });

  it('reports the one failing role and the missing subscription with the names that exist', async () => {
    world.adminConsent({ tenant: tailspin().tenantId, clientId: aegisApp.clientId });
    world.setScenarios(tailspin().tenantId, { failingRoleAssignment: 'Contributor' });
    const failing = (
      await asGlobalAdmin('POST', '/api/onboarding/roles', { subscriptionName: 'Options IT' })
    ).json<{
      statuses: { role: string; ok: boolean; message: string }[];
      allRolesAssigned: boolean;
    }>();
    const contributor = failing.statuses.find((s) => s.role === 'Contributor');
    expect(contributor?.ok).toBe(false);
    expect(contributor?.message).toMatch(/does not have authorization/);
    expect(failing.allRolesAssigned).toBe(false);

    world.setScenarios(tailspin().tenantId, {
      failingRoleAssignment: null,
      noDefaultSubscription: true,
    });
    const missing = (
      await asGlobalAdmin('POST', '/api/onboarding/roles', { subscriptionName: 'Options IT' })
    ).json<{ statuses: { role: string; ok: boolean; message: string }[] }>();
    expect(missing.statuses.find((s) => s.role === 'Reader')?.message).toBe(
      "Subscription 'Options IT' not found. Available subscriptions: Tailspin Toys - Pay-As-You-Go",
    );
  });

  it('answers a throttled Graph with the error value after the connector gave up retrying', async () => {
    world.adminConsent({ tenant: tailspin().tenantId, clientId: aegisApp.clientId });
    world.setScenarios(tailspin().tenantId, {
      throttle: { requests: 20, retryAfterInSeconds: 0 },
    });
    const result = (await asGlobalAdmin('GET', '/api/onboarding/enterprise-app')).json<{
      status: string;
      httpStatus?: number;
    }>();
    expect(result).toMatchObject({ status: 'error', httpStatus: 429 });
  });
});
