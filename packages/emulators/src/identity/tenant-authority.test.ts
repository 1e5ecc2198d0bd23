import { createHash, randomBytes } from 'node:crypto';

import { createRemoteJWKSet, decodeJwt, jwtVerify } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { startIdentityProvider, type IdentityProvider } from './identity-provider';
import { audienceFor } from './tenant-authority';
import type { ConsentOutcome, TenantDirectory } from './tenant-directory';
import { clientTenantTokenVerifier } from './token-verifier';

const PORTAL = 'http://localhost:4999';
const APP_ID = '0d3b9c7e-1a2b-4c5d-8e9f-a0b1c2d3e4f5';
const SECRET = 'local-secret';
const NEW_TENANT = '6a0f3c2e-8b7d-4e1a-9c3b-2d4e5f6a7b8c';
const consents: string[] = [];
let nextOutcome: ConsentOutcome = { granted: true };

const directory: TenantDirectory = {
  tenants: () => [
    {
      tenantId: NEW_TENANT,
      displayName: 'Northwind',
      domains: ['northwind.onmicrosoft.com', 'northwind.example'],
      globalAdministrators: [
        {
          oid: '11111111-2222-4333-8444-555555555555',
          upn: 'admin@northwind.example',
          displayName: 'Northwind Admin',
        },
      ],
    },
  ],
  grantAdminConsent: (tenantId, clientId) => {
    consents.push(`${tenantId}:${clientId}`);
    return nextOutcome;
  },
};

let idp: IdentityProvider;
beforeAll(async () => {
  idp = await startIdentityProvider({
    port: 0,
    audience: 'api://aegis',
    allowedOrigins: [PORTAL],
    directory,
    applications: [
      {
        clientId: APP_ID,
        displayName: 'Aegis - Deploy - Monitor - Fix',
        clientSecret: SECRET,
        apiAudience: 'api://aegis',
        permissions: ['Read and write all applications'],
      },
    ],
  });
});
afterAll(() => idp.close());

const form = (fields: Record<string, string>) => ({
  method: 'POST',
  headers: { 'content-type': 'application/x-www-form-urlencoded' },
  body: new URLSearchParams(fields).toString(),
  redirect: 'manual' as const,
});

describe('per-tenant authorities', () => {
  it('answers OpenID configuration by domain with the tenant id in the issuer', async () => {
    const response = await fetch(
      `${idp.url}/northwind.example/v2.0/.well-known/openid-configuration`,
    );
    const body = (await response.json()) as { issuer: string };
    expect(new URL(body.issuer).pathname.split('/')[1]).toBe(NEW_TENANT);
  });

  it('rejects an unknown domain with invalid_tenant AADSTS90002', async () => {
    const response = await fetch(
      `${idp.url}/nowhere.example/v2.0/.well-known/openid-configuration`,
    );
    expect(response.status).toBe(400);
    const body = (await response.json()) as { error: string; error_description: string };
    expect(body.error).toBe('invalid_tenant');
    expect(body.error_description).toMatch(/^AADSTS90002/);
  });

  it('redirects back from admin consent with tenant and admin_consent=True on Accept', async () => {
    const page = await fetch(
      `${idp.url}/common/adminconsent?client_id=${APP_ID}&redirect_uri=${PORTAL}/tenant-baseline-options&state=42`,
    );
    expect(await page.text()).toContain('Aegis - Deploy - Monitor - Fix');
    const response = await fetch(
      `${idp.url}/common/adminconsent`,
      form({
        client_id: APP_ID,
        redirect_uri: `${PORTAL}/tenant-baseline-options`,
        state: '42',
        upn: 'admin@northwind.example',
        decision: 'accept',
      }),
    );
    const location = new URL(response.headers.get('location') ?? '');
    expect(location.searchParams.get('admin_consent')).toBe('True');
    expect(location.searchParams.get('tenant')).toBe(NEW_TENANT);
    expect(location.searchParams.get('state')).toBe('42');
    expect(consents).toContain(`${NEW_TENANT}:${APP_ID}`);
  });

  it('passes on the tenant scenario refusing consent, and Cancel as access_denied', async () => {
    nextOutcome = {
      granted: false,
      error: 'access_denied',
      errorDescription: 'AADSTS1003031: Misconfigured required resource access.',
    };
    const refused = await fetch(
      `${idp.url}/${NEW_TENANT}/adminconsent`,
      form({
        client_id: APP_ID,
        redirect_uri: PORTAL,
        state: '1',
        upn: 'admin@northwind.example',
        decision: 'accept',
      }),
    );
    const refusedAt = new URL(refused.headers.get('location') ?? '');
    expect(refusedAt.searchParams.get('error_description')).toMatch(/AADSTS1003031/);
    expect(refusedAt.searchParams.get('admin_consent')).toBeNull();
    nextOutcome = { granted: true };

    const cancelled = await fetch(
      `${idp.url}/${NEW_TENANT}/adminconsent`,
      form({ client_id: APP_ID, redirect_uri: PORTAL, state: '1', decision: 'cancel' }),
    );
    const cancelledAt = new URL(cancelled.headers.get('location') ?? '');
    expect(cancelledAt.searchParams.get('error')).toBe('access_denied');
  });

  it('refuses a redirect URI outside the registered origins', async () => {
    const response = await fetch(
      `${idp.url}/common/adminconsent?client_id=${APP_ID}&redirect_uri=https://evil.example/&state=1`,
    );
    expect(response.status).toBe(400);
  });

  it('signs a Global Administrator in with a code and PKCE, then on-behalf-of gives a Graph token', async () => {
    const verifier = randomBytes(32).toString('base64url');
    const challenge = createHash('sha256').update(verifier).digest('base64url');
    const signedIn = await fetch(
      `${idp.url}/${NEW_TENANT}/oauth2/v2.0/authorize`,
      form({
        client_id: APP_ID,
        redirect_uri: `${PORTAL}/auth-popup.html`,
        state: 's',
        scope: 'api://aegis/user_impersonation',
        code_challenge: challenge,
        upn: 'admin@northwind.example',
        decision: 'sign-in',
      }),
    );
    const code = new URL(signedIn.headers.get('location') ?? '').searchParams.get('code') ?? '';
    const tokenFields = {
      grant_type: 'authorization_code',
      client_id: APP_ID,
      code,
      redirect_uri: `${PORTAL}/auth-popup.html`,
      scope: 'api://aegis/user_impersonation',
    };
    const wrongVerifier = await fetch(
      `${idp.url}/${NEW_TENANT}/oauth2/v2.0/token`,
      form({ ...tokenFields, code_verifier: 'nope' }),
    );
    expect(wrongVerifier.status).toBe(400);

    // The failed attempt used the code up: sign in again.
    const again = await fetch(
      `${idp.url}/${NEW_TENANT}/oauth2/v2.0/authorize`,
      form({
        client_id: APP_ID,
        redirect_uri: `${PORTAL}/auth-popup.html`,
        state: 's',
        scope: 'api://aegis/user_impersonation',
        code_challenge: challenge,
        upn: 'admin@northwind.example',
        decision: 'sign-in',
      }),
    );
    const code2 = new URL(again.headers.get('location') ?? '').searchParams.get('code') ?? '';
    const tokens = (await (
      await fetch(
        `${idp.url}/${NEW_TENANT}/oauth2/v2.0/token`,
        form({ ...tokenFields, code: code2, code_verifier: verifier }),
      )
    ).json()) as { access_token: string };
    const apiClaims = decodeJwt(tokens.access_token);
    expect(apiClaims.aud).toBe('api://aegis');
    expect(apiClaims.tid).toBe(NEW_TENANT);
    expect(apiClaims.iss).toBe(idp.tenantIssuer(NEW_TENANT));

    const obo = await fetch(
      `${idp.url}/${NEW_TENANT}/oauth2/v2.0/token`,
      form({
        grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer',
        requested_token_use: 'on_behalf_of',
        client_id: APP_ID,
        client_secret: SECRET,
        assertion: tokens.access_token,
        scope: 'https://graph.microsoft.com/Application.ReadWrite.All',
      }),
    );
    const graph = (await obo.json()) as { access_token: string };
    const verify = clientTenantTokenVerifier(idp, 'https://graph.microsoft.com');
    const claims = await verify(graph.access_token);
    expect(claims).toMatchObject({ tenantId: NEW_TENANT, upn: 'admin@northwind.example' });
    expect(claims?.scp).toBe('Application.ReadWrite.All');
    // The ARM verifier rejects the Graph token: every token has its own audience.
    expect(
      await clientTenantTokenVerifier(idp, 'https://management.azure.com')(graph.access_token),
    ).toBeUndefined();
    await jwtVerify(
      graph.access_token,
      createRemoteJWKSet(new URL(`${idp.url}/${NEW_TENANT}/discovery/v2.0/keys`)),
    );
  });

  it('refuses on-behalf-of with a wrong client secret', async () => {
    const assertion = await idp.issueTenantToken(NEW_TENANT, 'api://aegis');
    const response = await fetch(
      `${idp.url}/${NEW_TENANT}/oauth2/v2.0/token`,
      form({
        grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer',
        requested_token_use: 'on_behalf_of',
        client_id: APP_ID,
        client_secret: 'wrong',
        assertion,
        scope: 'https://management.azure.com/user_impersonation',
      }),
    );
    expect(response.status).toBe(401);
  });
});

describe('client credentials (a pipeline agent in a client tenant)', () => {
  it('issues an app-only token of the tenant for one resource', async () => {
    const response = await fetch(
      `${idp.url}/northwind.example/oauth2/v2.0/token`,
      form({
        grant_type: 'client_credentials',
        client_id: APP_ID,
        client_secret: SECRET,
        scope: 'https://graph.microsoft.com/.default',
      }),
    );
    expect(response.status).toBe(200);
    const claims = decodeJwt(((await response.json()) as { access_token: string }).access_token);
    expect(claims).toMatchObject({
      tid: NEW_TENANT,
      aud: 'https://graph.microsoft.com',
      idtyp: 'app',
      appid: APP_ID,
    });
    expect(claims['upn']).toBeUndefined();
  });

  it('refuses a wrong secret and an unknown tenant', async () => {
    const wrong = await fetch(
      `${idp.url}/${NEW_TENANT}/oauth2/v2.0/token`,
      form({
        grant_type: 'client_credentials',
        client_id: APP_ID,
        client_secret: 'wrong',
        scope: 'https://graph.microsoft.com/.default',
      }),
    );
    expect(wrong.status).toBe(401);
    const unknown = await fetch(
      `${idp.url}/nowhere.example/oauth2/v2.0/token`,
      form({
        grant_type: 'client_credentials',
        client_id: APP_ID,
        client_secret: SECRET,
        scope: 'https://graph.microsoft.com/.default',
      }),
    );
    expect(unknown.status).toBe(400);
  });
});

describe('audienceFor', () => {
  it('maps scopes to one resource and refuses two', () => {
    expect(audienceFor('openid https://management.azure.com/user_impersonation')).toEqual({
      audience: 'https://management.azure.com',
      scp: 'user_impersonation',
    });
    expect(audienceFor('User.Read Directory.Read.All')).toEqual({
      audience: 'https://graph.microsoft.com',
      scp: 'User.Read Directory.Read.All',
    });
    expect(audienceFor('User.Read https://management.azure.com/user_impersonation')).toHaveProperty(
      'error',
    );
  });
});
