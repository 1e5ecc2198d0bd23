import type { EnterpriseAppSearchResult } from '@aegis/contracts';
import { act } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import {
  clearClientTenantSession,
  setClientTenantSession,
} from '../../../lib/client-tenant-auth/client-tenant-session';
import { mockServer } from '../../../testing/mocks/server';
import { renderHookWithProviders } from '../../../testing/render-app';
import { globalAdminSession, TAILSPIN_TENANT_ID } from '../testing/onboarding-fixtures';

import { useEnterpriseAppSearch, type SearchState } from './use-enterprise-app-search';

const APP = { id: 'sp-1', appId: '0854848f-013d-4870-8e36-ee2f3f517467', displayName: 'Aegis' };
const NOT_FOUND: EnterpriseAppSearchResult = { status: 'not-found' };

/**
 * Runs a search to its end, one wait at a time: answers the waits asked for, the state shown
 * during each wait, and where the search ended.
 */
async function runSearch(answers: (EnterpriseAppSearchResult | 'network error')[]) {
  let calls = 0;
  mockServer.use(
    http.get('*/api/onboarding/enterprise-app', ({ request }) => {
      calls += 1;
      // asked as the technician and the client tenant's Global Administrator
      expect(request.headers.get('authorization')).toBe('Bearer test-token');
      expect(request.headers.get('x-client-tenant-authorization')).toBe(
        'Bearer client-tenant-token',
      );
      const answer = answers[calls - 1];
      if (answer === undefined) return HttpResponse.json({ message: 'no more' }, { status: 500 });
      return answer === 'network error' ? HttpResponse.error() : HttpResponse.json(answer);
    }),
  );
  const waits: number[] = [];
  let wake: (() => void) | undefined;
  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      waits.push(ms);
      wake = resolve;
    });
  const { result } = renderHookWithProviders(() => useEnterpriseAppSearch(sleep));
  expect(result.current.state).toEqual({ status: 'idle' });
  let final: SearchState | undefined;
  let running!: Promise<void>;
  act(() => {
    running = result.current.search().then((end) => {
      final = end;
    });
  });
  const shown: SearchState[] = [result.current.state];
  for (;;) {
    await act(async () => {
      await Promise.race([running, new Promise((resolve) => setTimeout(resolve, 0))]);
    });
    if (final) break;
    if (!wake) continue;
    shown.push(result.current.state);
    const next = wake;
    wake = undefined;
    next();
  }
  await act(async () => running);
  const texts = [...shown, final].flatMap((s) => ('text' in s ? [s.text] : []));
  return {
    final,
    waits,
    texts,
    calls,
    shown,
    state: result.current.state,
  };
}

beforeEach(() =>
  setClientTenantSession(
    globalAdminSession(TAILSPIN_TENANT_ID, 'admin@tailspintoys.onmicrosoft.com', 'Tailspin Admin'),
  ),
);
afterEach(() => clearClientTenantSession());

describe('the enterprise app search (spec 2 §4, §8, §9)', () => {
  it('tries 6 times, waiting 3000 ms then ×1.5, with both progress texts, then gives up', async () => {
    const { final, waits, texts, calls } = await runSearch(
      Array.from({ length: 6 }, () => NOT_FOUND),
    );
    expect(calls).toBe(6);
    expect(waits).toEqual([3000, 4500, 6750, 10125, 15187.5]);
    expect(texts).toEqual([
      'Searching for enterprise application in tenant... This may take a few moments.',
      'Enterprise app not found yet, retrying... (Attempt 1/6)',
      'Enterprise app not found yet, retrying... (Attempt 2/6)',
      'Enterprise app not found yet, retrying... (Attempt 3/6)',
      'Enterprise app not found yet, retrying... (Attempt 4/6)',
      'Enterprise app not found yet, retrying... (Attempt 5/6)',
      'Enterprise app not found in target tenant after maximum retries. The admin consent may not have completed properly, or there may be a propagation delay. Please wait a few minutes and refresh the page to try again.',
    ]);
    expect(final).toMatchObject({ status: 'failed' });
  });

  it('stops at once on a 401', async () => {
    const { final, waits, calls } = await runSearch([{ status: 'unauthorized' }, NOT_FOUND]);
    expect(calls).toBe(1);
    expect(waits).toEqual([]);
    expect(final).toEqual({
      status: 'failed',
      text: 'Authentication failed. Please try the admin consent flow again.',
    });
  });

  it('retries other errors, showing them, and finds the app on a later attempt', async () => {
    const { final, calls, shown, state } = await runSearch([
      { status: 'error', httpStatus: 503, body: '{"error":{"code":"ServiceUnavailable"}}' },
      NOT_FOUND,
      { status: 'found', servicePrincipal: APP },
    ]);
    expect(calls).toBe(3);
    expect(shown).toContainEqual({
      status: 'searching',
      text: 'Enterprise app not found yet, retrying... (Attempt 1/6)',
      lastError: 'Graph API error: 503 - {"error":{"code":"ServiceUnavailable"}}',
    });
    expect(final).toEqual({ status: 'found', servicePrincipal: APP });
    expect(state).toEqual(final);
  });

  it('ends with the last error when every attempt failed', async () => {
    const { final, calls } = await runSearch(
      Array.from(
        { length: 6 },
        () => ({ status: 'error', httpStatus: 500, body: 'boom' }) as const,
      ),
    );
    expect(calls).toBe(6);
    expect(final).toEqual({
      status: 'failed',
      text: 'Failed to retrieve enterprise app information: Graph API error: 500 - boom',
    });
  });

  it('reports a request that could not be made', async () => {
    const { final } = await runSearch(['network error']);
    expect(final).toEqual({
      status: 'failed',
      text: 'Failed to retrieve enterprise app information: Failed to fetch',
    });
  });
});
