// What the onboarding screens' tests share: the Aegis app's client id in the client tenants, the
// auth configuration that enables client-tenant sign-in, and a Global Administrator's session as
// MSAL's popup would leave it (the popup itself is MSAL's, not what these tests are about).
import { http, HttpResponse } from 'msw';

import {
  setClientTenantSession,
  type ClientTenantSession,
} from '../../../lib/client-tenant-auth/client-tenant-session';

export const AEGIS_APP_ID = '0854848f-013d-4870-8e36-ee2f3f517467';

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
  return async () => {
    setClientTenantSession(session());
    return session();
  };
}
