import { describe, expect, it } from 'vitest';

import { checkDevOpsOrganization } from '../devops/reachability';
import { checkSigningKeys } from '../discovery/signing-keys';

const answering =
  (response: () => Response): typeof fetch =>
  () =>
    Promise.resolve(response());

describe('readiness probes', () => {
  it('takes any answer of an existing DevOps organisation, signed in or not, as reachable', async () => {
    for (const status of [200, 203, 401]) {
      const fetch = answering(() => new Response('{}', { status }));
      expect(
        await checkDevOpsOrganization('https://dev.azure.com/contoso', {
          timeoutInMs: 1_000,
          fetch,
        }),
      ).toEqual({
        reachable: true,
      });
    }
  });

  it('names a wrong organisation, a failing service and no answer', async () => {
    const url = 'https://dev.azure.com/contoso';
    expect(
      await checkDevOpsOrganization(url, {
        timeoutInMs: 1_000,
        fetch: answering(() => new Response('', { status: 404 })),
      }),
    ).toEqual({
      reachable: false,
      reason: 'no organisation at https://dev.azure.com/contoso (404)',
    });
    expect(
      await checkDevOpsOrganization(url, {
        timeoutInMs: 1_000,
        fetch: answering(() => new Response('', { status: 503 })),
      }),
    ).toEqual({ reachable: false, reason: 'answered 503' });
    const refused: typeof fetch = () =>
      Promise.reject(
        new TypeError('fetch failed', { cause: new Error('connect ECONNREFUSED 127.0.0.1:9') }),
      );
    expect(await checkDevOpsOrganization(url, { timeoutInMs: 1_000, fetch: refused })).toEqual({
      reachable: false,
      reason: 'unreachable (connect ECONNREFUSED 127.0.0.1:9)',
    });
    const silent: typeof fetch = (_input, init) =>
      new Promise((_resolve, reject) =>
        // as fetch does: rejects with the signal's reason, here AbortSignal.timeout's TimeoutError
        init?.signal?.addEventListener('abort', () => reject(init.signal?.reason as Error)),
      );
    expect(await checkDevOpsOrganization(url, { timeoutInMs: 20, fetch: silent })).toEqual({
      reachable: false,
      reason: 'no answer within 20 ms',
    });
  });

  it('needs at least one signing key', async () => {
    const jwks = 'https://login.example/keys';
    const keys = (body: unknown, status = 200) => answering(() => Response.json(body, { status }));
    expect(
      await checkSigningKeys(jwks, { timeoutInMs: 1_000, fetch: keys({ keys: [{ kid: 'a' }] }) }),
    ).toEqual({
      reachable: true,
    });
    expect(await checkSigningKeys(jwks, { timeoutInMs: 1_000, fetch: keys({ keys: [] }) })).toEqual(
      {
        reachable: false,
        reason: 'the signing keys document holds no key',
      },
    );
    expect(await checkSigningKeys(jwks, { timeoutInMs: 1_000, fetch: keys({}, 500) })).toEqual({
      reachable: false,
      reason: 'the signing keys answered 500',
    });
  });
});
