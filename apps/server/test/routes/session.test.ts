import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { build, SAMPLE_USER, type TestApp } from '../helper';

describe('session and auth', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await build();
  });
  afterAll(async () => t.close());

  it('serves health without a token', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ status: 'ok' });
  });

  it('answers 401 without a token', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/me' });
    expect(response.statusCode).toBe(401);
    expect(response.json()).toMatchObject({
      statusCode: 401,
      message: 'No authenticated account found.',
    });
  });

  it('answers 401 for an unknown API route without a token, so nothing leaks', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/anything' });
    expect(response.statusCode).toBe(401);
  });

  it('answers 401 for a token signed by another key', async () => {
    const forged =
      'eyJhbGciOiJSUzI1NiIsImtpZCI6ImFlZ2lzLWxvY2FsLWlkcC0xIn0.eyJ1cG4iOiJ4In0.c2lnbmF0dXJl';
    const response = await t.app.inject({
      method: 'GET',
      url: '/api/me',
      headers: { authorization: `Bearer ${forged}` },
    });
    expect(response.statusCode).toBe(401);
  });

  it('returns the signed-in user from the validated token', async () => {
    const response = await t.injectAs(SAMPLE_USER, { method: 'GET', url: '/api/me' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      upn: SAMPLE_USER,
      displayName: 'Alex Morgan',
      roles: ['Administrator'],
    });
  });

  it('returns null display name for an account without one', async () => {
    const response = await t.injectAs('night.shift@aegis-msp.example', {
      method: 'GET',
      url: '/api/me',
    });
    expect(response.json()).toEqual({
      upn: 'night.shift@aegis-msp.example',
      displayName: null,
      roles: ['Reader'],
    });
  });

  it('tells the browser how to sign in', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/auth-config.json' });
    expect(response.json()).toEqual({ mode: 'local', identityProviderUrl: t.idp.url });
  });

  it('sends security headers with a CSP', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(response.headers['content-security-policy']).toContain("default-src 'self'");
    expect(response.headers['content-security-policy']).toContain(new URL(t.idp.url).origin);
  });

  it('publishes OpenAPI generated from the route schemas', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(response.statusCode).toBe(200);
    const spec = response.json() as { openapi: string; paths: Record<string, unknown> };
    expect(spec.openapi).toMatch(/^3\./);
    expect(Object.keys(spec.paths)).toEqual(
      expect.arrayContaining([
        '/api/me',
        '/api/projects',
        '/api/projects/{projectId}/pipelines/{pipelineId}/runs',
      ]),
    );
  });
});

describe('sign-in configuration with Entra ID', () => {
  it('asks the browser for a token for the Aegis API, which the server trades for DevOps (ADR 031)', async () => {
    const t = await build({
      AEGIS_AUTH_MODE: 'entra',
      AEGIS_ENTRA_CLIENT_ID: '11111111-2222-3333-4444-555555555555',
      AEGIS_ENTRA_TENANT_ID: 'contoso.onmicrosoft.com',
    });
    try {
      const response = await t.app.inject({ method: 'GET', url: '/auth-config.json' });
      expect(response.json()).toMatchObject({
        mode: 'entra',
        clientId: '11111111-2222-3333-4444-555555555555',
        apiScope: 'api://11111111-2222-3333-4444-555555555555/user_impersonation',
      });
    } finally {
      await t.close();
    }
  });
});
