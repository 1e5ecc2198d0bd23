import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { build, TEST_AUDIENCE, type TestApp } from '../helper';

const now = () => Math.floor(Date.now() / 1000);

describe('bearer tokens', () => {
  let t: TestApp;
  let claims: Record<string, unknown>;
  beforeAll(async () => {
    t = await build();
    claims = {
      iss: t.idp.issuer,
      aud: TEST_AUDIENCE,
      upn: 'alex.morgan@aegis-msp.example',
      oid: '5b1f6a0e-2f4c-4d8e-9a51-7c3e2b9d4f10',
      iat: now(),
      exp: now() + 600,
    };
  });
  afterAll(async () => t.close());

  const me = (token: string) =>
    t.app.inject({ method: 'GET', url: '/api/me', headers: { authorization: `Bearer ${token}` } });

  it('accepts a well-formed token signed by the identity provider', async () => {
    expect((await me(await t.idp.signClaims(claims))).statusCode).toBe(200);
  });

  it('refuses a token without exp', async () => {
    const { exp: _exp, ...withoutExp } = claims;
    const response = await me(await t.idp.signClaims(withoutExp));
    expect(response.statusCode).toBe(401);
    expect(response.json()).toMatchObject({
      message: 'The access token is invalid or has expired.',
    });
  });

  it('refuses a token whose nbf is in the future', async () => {
    expect((await me(await t.idp.signClaims({ ...claims, nbf: now() + 600 }))).statusCode).toBe(
      401,
    );
  });

  it('refuses an expired token', async () => {
    expect((await me(await t.idp.signClaims({ ...claims, exp: now() - 60 }))).statusCode).toBe(401);
  });

  it('refuses another audience or issuer', async () => {
    expect((await me(await t.idp.signClaims({ ...claims, aud: 'api://other' }))).statusCode).toBe(
      401,
    );
    expect(
      (await me(await t.idp.signClaims({ ...claims, iss: 'https://evil.example' }))).statusCode,
    ).toBe(401);
  });

  it('refuses an unsigned token (alg none)', async () => {
    const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
    const unsigned = `${encode({ alg: 'none', typ: 'JWT' })}.${encode(claims)}.`;
    expect((await me(unsigned)).statusCode).toBe(401);
  });
});
