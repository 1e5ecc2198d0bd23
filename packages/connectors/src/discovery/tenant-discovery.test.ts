import { describe, expect, it } from 'vitest';

import { requestUrl } from '../testing/request-url';

import { TenantDiscovery, discoveryCandidates, normaliseDomain, tenantIdFromIssuer } from './index';

const TENANT = '3f2c1b4a-9d8e-4f70-a1b2-c3d4e5f60718';

/** A login host that knows `contoso.onmicrosoft.com` only, like Entra for an unverified custom domain. */
function loginHost(seen: string[], failures: Record<string, Response> = {}): typeof fetch {
  const answer = (input: string | URL | Request): Response => {
    const url = new URL(requestUrl(input));
    const candidate = decodeURIComponent(url.pathname.split('/')[1] ?? '');
    seen.push(candidate);
    const failure = failures[candidate];
    if (failure) return failure.clone();
    if (candidate === 'contoso.onmicrosoft.com') {
      return Response.json({
        issuer: `https://login.microsoftonline.com/${TENANT}/v2.0`,
        token_endpoint: `https://login.microsoftonline.com/${TENANT}/oauth2/v2.0/token`,
      });
    }
    return Response.json(
      {
        error: 'invalid_tenant',
        error_description: `AADSTS90002: Tenant '${candidate}' not found.`,
      },
      { status: 400 },
    );
  };
  return (input) => Promise.resolve(answer(input));
}

describe('tenant discovery', () => {
  it('tries the domain, the domain plus .onmicrosoft.com and the .com swap', () => {
    expect(discoveryCandidates('Contoso.com')).toEqual([
      'contoso.com',
      'contoso.com.onmicrosoft.com',
      'contoso.onmicrosoft.com',
    ]);
    expect(discoveryCandidates('contoso')).toEqual(['contoso', 'contoso.onmicrosoft.com']);
    expect(discoveryCandidates('contoso.onmicrosoft.com')).toEqual(['contoso.onmicrosoft.com']);
    expect(discoveryCandidates('  ')).toEqual([]);
    expect(normaliseDomain('https://admin@Contoso.com/path')).toBe('contoso.com');
  });

  it('reads the tenant id from the issuer', () => {
    expect(tenantIdFromIssuer(`https://login.microsoftonline.com/${TENANT}/v2.0`)).toBe(TENANT);
    expect(tenantIdFromIssuer('https://login.microsoftonline.com/{tenantid}/v2.0')).toBeUndefined();
    expect(tenantIdFromIssuer('not a url')).toBeUndefined();
  });

  it('moves to the next candidate on invalid_tenant and stops at the first that answers', async () => {
    const seen: string[] = [];
    const discovery = new TenantDiscovery({
      loginUrl: 'https://login.example',
      fetch: loginHost(seen),
    });
    expect(await discovery.discover('contoso.com')).toMatchObject({
      tenantId: TENANT,
      domain: 'contoso.onmicrosoft.com',
    });
    expect(seen).toEqual(['contoso.com', 'contoso.com.onmicrosoft.com', 'contoso.onmicrosoft.com']);
    expect(await discovery.resolveTenantId('nowhere.example')).toBeUndefined();
  });

  it('retries a throttled discovery call and throws other failures as ServiceErrors', async () => {
    const seen: string[] = [];
    const sleeps: number[] = [];
    let throttled = 1;
    const base = loginHost(seen, {
      'contoso.com': new Response('upstream broke', { status: 500 }),
    });
    const discovery = new TenantDiscovery({
      loginUrl: 'https://login.example',
      retry: {
        sleep: (ms) => {
          sleeps.push(ms);
          return Promise.resolve();
        },
      },
      fetch: async (input, init) => {
        if (throttled-- > 0) {
          return new Response('{}', { status: 429, headers: { 'retry-after': '2' } });
        }
        return base(input, init);
      },
    });
    await expect(discovery.discover('contoso.com')).rejects.toMatchObject({
      service: 'identity',
      statusCode: 500,
      message: 'upstream broke',
    });
    expect(sleeps).toEqual([2000]);
  });
});
