import { describe, expect, it } from 'vitest';

import { HttpClientCredentials, TokenCache } from '../../src/services/on-behalf-of';

const options = {
  loginUrl: 'https://login.example',
  clientId: 'aegis',
  clientSecret: 'secret',
  tenantId: 'msp',
};

/** A token endpoint that issues `token-1`, `token-2`, … each valid for `expiresIn` seconds. */
function tokenEndpoint(expiresIn: number) {
  const scopes: string[] = [];
  const fetchImpl: typeof fetch = async (_url, init) => {
    scopes.push(new URLSearchParams(String(init?.body)).get('scope') ?? '');
    return Response.json({ access_token: `token-${scopes.length}`, expires_in: expiresIn });
  };
  return { fetchImpl, scopes };
}

describe('TokenCache', () => {
  it('reuses a token until a minute before it expires, then asks again', async () => {
    let now = 1_000;
    const { fetchImpl, scopes } = tokenEndpoint(3600);
    const credentials = new HttpClientCredentials(
      options,
      fetchImpl,
      new TokenCache({ now: () => now }),
    );
    expect(await credentials.acquire(['499b84ac/.default'])).toBe('token-1');
    now = 3_539_000;
    expect(await credentials.acquire(['499b84ac/.default'])).toBe('token-1');
    expect(scopes).toEqual(['499b84ac/.default']);
    now = 3_541_001;
    expect(await credentials.acquire(['499b84ac/.default'])).toBe('token-2');
  });

  it('keeps tokens of different scopes apart', async () => {
    const { fetchImpl, scopes } = tokenEndpoint(3600);
    const credentials = new HttpClientCredentials(options, fetchImpl);
    expect(await credentials.acquire(['a/.default'])).toBe('token-1');
    expect(await credentials.acquire(['b/.default'])).toBe('token-2');
    expect(await credentials.acquire(['a/.default'])).toBe('token-1');
    expect(scopes).toEqual(['a/.default', 'b/.default']);
  });

  it('does not keep a token that is already due for renewal', async () => {
    const { fetchImpl, scopes } = tokenEndpoint(30);
    const credentials = new HttpClientCredentials(options, fetchImpl);
    await credentials.acquire(['a/.default']);
    await credentials.acquire(['a/.default']);
    expect(scopes).toHaveLength(2);
  });
});
