import { Writable } from 'node:stream';

import { startIdentityProvider } from '@aegis/emulators';
import { describe, expect, it } from 'vitest';

import { buildApp, loadConfig } from '../../src';
import { redactDeep, redactUrl } from '../../src/lib/logging';
import { TEST_AUDIENCE } from '../helper';

describe('structured logs', () => {
  it('never write bearer tokens or passwords', async () => {
    const idp = await startIdentityProvider({
      port: 0,
      audience: TEST_AUDIENCE,
      allowedOrigins: [],
    });
    const lines: string[] = [];
    const stream = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(chunk.toString());
        done();
      },
    });
    const config = loadConfig({
      AEGIS_AUTH_JWKS_URL: idp.jwksUrl,
      AEGIS_AUTH_ISSUER: idp.issuer,
      AEGIS_AUTH_AUDIENCE: TEST_AUDIENCE,
      AEGIS_LOCAL_IDP_URL: idp.url,
      AEGIS_DEVOPS_ORG_URL: 'http://127.0.0.1:9/unused',
    });
    const app = await buildApp({
      config,
      logLevel: 'trace',
      logStream: stream,
    });
    const token = await idp.issueToken('alex.morgan@aegis-msp.example');
    const response = await app.inject({
      method: 'POST',
      url: '/api/me',
      headers: { authorization: `Bearer ${token}` },
      payload: { password: 'Sup3r-secret!', TenantAdminUserPW: 'Another-secret!' },
    });
    expect(response.statusCode).toBe(404);
    // What a service might log about a pipeline run carrying secret variables.
    app.log.info(
      {
        req: { headers: { authorization: `Bearer ${token}` } },
        variables: { TenantAdminUserPW: 'Run-secret!' },
      },
      'starting onboarding run',
    );
    // A token or an authorization code in a query string, and secrets deep inside an object.
    await app.inject({
      method: 'GET',
      url: `/api/me?access_token=${token}&code=Auth-code-secret&client_secret=Client-secret!&view=full`,
    });
    app.log.warn(
      { run: { parameters: { tenant: { admin: { TenantAdminUserPW: 'Deep-secret!' } } } } },
      'deep object',
    );
    app.log.info({ call: 'GET https://example/x?sig=Sas-signature-secret&sv=2024' }, 'a url');
    await app.close();
    await idp.close();

    const log = lines.join('');
    expect(log).toContain('incoming request');
    expect(log).not.toContain(token);
    expect(log).not.toContain('Sup3r-secret!');
    expect(log).not.toContain('Another-secret!');
    expect(log).not.toContain('Run-secret!');
    expect(log).not.toContain('Auth-code-secret');
    expect(log).not.toContain('Client-secret!');
    expect(log).not.toContain('Deep-secret!');
    expect(log).not.toContain('Sas-signature-secret');
    expect(log).toContain('view=full');
    expect(log).toContain('[Redacted]');
  });
});

describe('credentials in logged URLs', () => {
  const jwt =
    'eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJhbGV4QGFlZ2lzIiwiZXhwIjo0MTAyNDQ0ODAwfQ.c2lnbmF0dXJlLWJ5dGVz';

  it.each([
    `/api/me?authorization=Opaque-secret-1`,
    `/api/me?jwt=Opaque-secret-1`,
    `/api/me?auth=Opaque-secret-1`,
    `/api/me?bearer=Opaque-secret-1`,
    `/api/me?session=Opaque-secret-1`,
    `/api/me?anything=${jwt}`,
    `/api/tokens/${jwt}/details`,
    `https://alex:Opaque-secret-1@dev.azure.com/org/_apis/git`,
  ])('redacts the credential of %s', (url) => {
    const logged = redactUrl(url);
    expect(logged).not.toContain('Opaque-secret-1');
    expect(logged).not.toContain(jwt);
    expect(logged).toContain('[Redacted]');
  });

  it('keeps what is not a credential: ids, commit ids, ordinary parameters', () => {
    const url =
      '/api/backups/ABC/tags?tenant=0b6b1c1e-8c1d-4b8a-9f7e-3a1e2d4c5b6a&commit=4b825dc642cb6eb9a060e54bf8d69288fbee4904&view=full';
    expect(redactUrl(url)).toBe(url);
  });

  it('redacts a JWT inside free text that is logged', () => {
    expect(redactDeep({ message: `GET https://x.example/${jwt} failed` })).toEqual({
      message: 'GET https://x.example/[Redacted] failed',
    });
  });
});
