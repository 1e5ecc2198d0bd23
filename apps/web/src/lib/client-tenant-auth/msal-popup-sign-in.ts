import type { ClientTenantAuth } from '@aegis/contracts';
import { PublicClientApplication } from '@azure/msal-browser';

import { GlobalAdminSignInError, type ClientTenantSession } from './client-tenant-session';

/**
 * Entra ID: a second MSAL instance against the client tenant's authority, its cache in memory
 * only (ADR 020), so the Global Administrator's tokens never reach web storage.
 */
export async function msalPopupSignIn(
  config: ClientTenantAuth,
  tenant: string,
): Promise<ClientTenantSession> {
  const msal = new PublicClientApplication({
    auth: {
      clientId: config.clientId,
      authority: `${config.loginUrl}/${tenant}`,
      redirectUri: `${window.location.origin}/auth-popup.html`,
    },
    cache: { cacheLocation: 'memoryStorage' },
  });
  await msal.initialize();
  try {
    const result = await msal.loginPopup({ scopes: [config.apiScope], prompt: 'select_account' });
    return {
      tenantId: result.tenantId,
      upn: result.account.username,
      displayName: result.account.name ?? null,
      accessToken: result.accessToken,
      expiresAt: result.expiresOn?.getTime() ?? Date.now() + 3600_000,
    };
  } catch (error) {
    const { errorCode, errorMessage } = error as { errorCode?: string; errorMessage?: string };
    throw new GlobalAdminSignInError(errorCode ?? 'unknown_error', errorMessage ?? String(error));
  }
}
