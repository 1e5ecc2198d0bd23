import { ONBOARDING_ROLES } from '@aegis/domain';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { beforeEach, describe, expect, it, vi } from 'vitest';

import type * as ClientTenantAuth from '../../lib/client-tenant-auth/client-tenant-auth';
import { clientsHandler, knownClient } from '../../testing/mocks/clients';
import { mockServer } from '../../testing/mocks/server';
import { renderApp } from '../../testing/render-app';

import {
  AEGIS_APP_ID,
  clientTenantsAuthConfig,
  findEnabledButton,
  globalAdminSession,
  TAILSPIN_TENANT_ID,
} from './testing/onboarding-fixtures';

const TENANT = TAILSPIN_TENANT_ID;
const GLOBAL_ADMIN = globalAdminSession(
  TENANT,
  'admin@tailspintoys.onmicrosoft.com',
  'Tailspin Admin',
);

// The popup itself is MSAL's; the flow after it is what this test is about.
vi.mock('../../lib/client-tenant-auth/client-tenant-auth', async (importOriginal) => {
  const original = await importOriginal<typeof ClientTenantAuth>();
  return {
    ...original,
    signInGlobalAdmin: vi.fn(
      (await import('./testing/onboarding-fixtures')).signsInAs(() => GLOBAL_ADMIN),
    ),
  };
});

const calls: string[] = [];
let searchesBeforeFound = 1;

beforeEach(() => {
  calls.length = 0;
  sessionStorage.setItem(
    'aegis.onboarding.tenantForm',
    JSON.stringify({
      clientCode: 'TSP',
      domain: 'tailspintoys.com',
      hasOptionsCSP: 'yes',
      customSubscriptionName: '',
      enrollInPowerSupport: 'no',
      selectedRegion: 'uksouth',
    }),
  );
  sessionStorage.setItem('aegis.onboarding.resolvedTenantId', TENANT);
  mockServer.use(
    // ABC has a tenant pipeline (the one client list, ADR 054)
    clientsHandler([knownClient('ABC')]),
    clientTenantsAuthConfig(),
    http.get('*/api/onboarding/tenant-pipelines', () => HttpResponse.json({ pipelines: [] })),
    // Consent made the app, but Graph shows it only after propagation.
    http.get('*/api/onboarding/enterprise-app', () => {
      calls.push('search');
      const visible = calls.filter((c) => c === 'search').length > searchesBeforeFound;
      return HttpResponse.json(
        visible
          ? {
              status: 'found',
              servicePrincipal: { id: 'sp-1', appId: AEGIS_APP_ID, displayName: 'Aegis' },
            }
          : { status: 'not-found' },
      );
    }),
    http.post('*/api/onboarding/roles', () => {
      calls.push('roles');
      const found = calls.filter((c) => c === 'search').length > searchesBeforeFound;
      if (!found)
        return HttpResponse.json({ message: 'Enterprise App not found' }, { status: 404 });
      return HttpResponse.json({
        statuses: ONBOARDING_ROLES.map((role) => ({ role: role.name, ok: true, message: '' })),
        allRolesAssigned: true,
      });
    }),
  );
});

describe('tenant onboarding: role assignment right after consent (spec 2 §4)', () => {
  it('waits for the enterprise app to appear before assigning the roles', async () => {
    searchesBeforeFound = 1;
    renderApp(`/tenant-baseline-options?admin_consent=True&tenant=${TENANT}&state=1`);
    await userEvent.click(await findEnabledButton('Login as Global Admin'));

    const roles = await screen.findByRole('list', { name: 'Role assignment' });
    expect(
      await within(roles).findByText(
        '✅ Teams Administrator role assigned successfully',
        undefined,
        {
          timeout: 10_000,
        },
      ),
    ).toBeVisible();
    expect(calls).toEqual(['search', 'search', 'roles']);
    expect(screen.queryByText(/Error assigning roles/)).toBeNull();
  }, 20_000);

  it("gives the search's own message when the app never appears, and offers a retry", async () => {
    searchesBeforeFound = Number.POSITIVE_INFINITY;
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      renderApp(`/tenant-baseline-options?admin_consent=True&tenant=${TENANT}&state=1`);
      const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
      await user.click(await findEnabledButton('Login as Global Admin'));
      await vi.advanceTimersByTimeAsync(60_000);
      expect(
        await screen.findByText(/Enterprise app not found in target tenant after maximum retries/),
      ).toBeVisible();
      expect(calls.filter((c) => c === 'search')).toHaveLength(6);
      expect(calls).not.toContain('roles');
      expect(screen.getByRole('button', { name: 'Retry Role Assignment' })).toBeVisible();
    } finally {
      vi.useRealTimers();
    }
  }, 20_000);
});
