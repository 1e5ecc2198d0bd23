// What the onboarding screens' tests share: the Aegis app's client id in the client tenants, the
// auth configuration that enables client-tenant sign-in, and a Global Administrator's session as
// MSAL's popup would leave it (the popup itself is MSAL's, not what these tests are about).
import { screen, waitFor } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { expect } from 'vitest';

import {
  setClientTenantSession,
  type ClientTenantSession,
} from '../../../lib/client-tenant-auth/client-tenant-session';

export const AEGIS_APP_ID = '0854848f-013d-4870-8e36-ee2f3f517467';

/** Tailspin Toys, a tenant not yet onboarded, and some other tenant's id. */
export const TAILSPIN_TENANT_ID = 'c086217b-82aa-4623-a64c-f777842cf5e8';
export const OTHER_TENANT_ID = '0b1c2d3e-4f50-4617-8293-a4b5c6d7e8f9';

/** The tenant onboarding form for Tailspin Toys as session storage keeps it across the consent. */
export const TAILSPIN_FORM = {
  clientCode: 'TSP',
  domain: 'tailspintoys.com',
  hasOptionsCSP: 'yes',
  customSubscriptionName: '',
  enrollInPowerSupport: 'no',
  selectedRegion: 'uksouth',
};

/** /auth-config.json of the embedded default, with client-tenant sign-in configured. */
export function clientTenantsAuthConfig() {
  return http.get('*/auth-config.json', () =>
    HttpResponse.json({
      mode: 'local',
      identityProviderUrl: 'http://idp.test',
      clientTenants: {
        loginUrl: 'http://idp.test',
        clientId: AEGIS_APP_ID,
        apiScope: 'api://aegis/user_impersonation',
      },
    }),
  );
}

/** A Global Administrator signed in to `tenantId` for the next hour. */
export function globalAdminSession(
  tenantId: string,
  upn: string,
  displayName: string,
): ClientTenantSession {
  return {
    tenantId,
    upn,
    displayName,
    accessToken: 'client-tenant-token',
    expiresAt: Date.now() + 3_600_000,
  };
}

/** signInGlobalAdmin's effect: the session is stored and returned. */
export function signsInAs(session: () => ClientTenantSession) {
  return () => {
    setClientTenantSession(session());
    return Promise.resolve(session());
  };
}

/** A button once it can be used: the sign-in buttons wait for the sign-in configuration. */
export async function findEnabledButton(name: string): Promise<HTMLElement> {
  const button = await screen.findByRole('button', { name });
  await waitFor(() => expect(button).toBeEnabled());
  return button;
}
