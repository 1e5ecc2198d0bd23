import type { AuthConfig, ClientTenantAuth } from '@aegis/contracts';
import { useQuery } from '@tanstack/react-query';
import { useSyncExternalStore } from 'react';

import { api, apiErrorFrom, type ApiRequest } from '../api-client';
import { loadAuthConfig } from '../auth/auth-config';

import {
  currentClientTenantSession,
  GlobalAdminSignInError,
  setClientTenantSession,
  subscribeClientTenantSession,
  type ClientTenantSession,
} from './client-tenant-session';

export interface ClientTenantConfig extends ClientTenantAuth {
  readonly mode: AuthConfig['mode'];
}

/** Where client tenants sign in and consent, from the public /auth-config.json. */
export function useClientTenantConfig() {
  return useQuery({
    queryKey: ['auth-config.json'],
    queryFn: async (): Promise<ClientTenantConfig> => {
      const config = await loadAuthConfig();
      if (!config.clientTenants) throw new Error('Onboarding is not configured on this server.');
      return { ...config.clientTenants, mode: config.mode };
    },
    staleTime: Infinity,
  });
}

/**
 * Spec 2 §4, §7: the admin consent address (`/{tenant|common}/adminconsent`), coming back to
 * `redirectUri` with the consent's outcome.
 */
export function adminConsentUrl(
  config: ClientTenantAuth,
  options: { tenant: string; redirectUri: string; state: string },
): string {
  const url = new URL(`${config.loginUrl}/${encodeURIComponent(options.tenant)}/adminconsent`);
  url.search = new URLSearchParams({
    client_id: config.clientId,
    redirect_uri: options.redirectUri,
    state: options.state,
  }).toString();
  return url.toString();
}

/** Leaves the portal for the admin consent page (a full navigation; it comes back to the redirect uri). */
export function goToAdminConsent(url: string): void {
  window.location.assign(url);
}

/** The Global Administrator's popup sign-in to `tenant` (id, domain or `organizations`). */
export async function signInGlobalAdmin(
  config: ClientTenantConfig,
  tenant: string,
): Promise<ClientTenantSession> {
  const session =
    config.mode === 'entra'
      ? await (await import('./msal-popup-sign-in')).msalPopupSignIn(config, tenant)
      : await (await import('./local-popup-sign-in')).localPopupSignIn(config, tenant);
  setClientTenantSession(session);
  return session;
}

export function useClientTenantSession(): ClientTenantSession | undefined {
  return useSyncExternalStore(subscribeClientTenantSession, currentClientTenantSession);
}

const HEADER = 'X-Client-Tenant-Authorization';

function clientTenantHeader(): Record<string, string> {
  const session = currentClientTenantSession();
  if (!session)
    throw new GlobalAdminSignInError(
      'no_session',
      'The Global Administrator is not signed in. Sign in as Global Admin again.',
    );
  return { [HEADER]: `Bearer ${session.accessToken}` };
}

/** Calls the Aegis API as the technician and the client tenant's Global Administrator. */
export function clientTenantApi<T>(path: string, request: ApiRequest = {}): Promise<T> {
  return api<T>(path, { ...request, headers: { ...request.headers, ...clientTenantHeader() } });
}

/** The open Global Admin tool: the Global Administrator's token only, no Aegis sign-in. */
export async function globalAdminOnlyApi<T>(path: string, request: ApiRequest = {}): Promise<T> {
  const response = await fetch(new URL(path, window.location.origin), {
    method: request.method ?? 'GET',
    signal: request.signal,
    headers: {
      ...clientTenantHeader(),
      ...(request.body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: request.body === undefined ? undefined : JSON.stringify(request.body),
  });
  if (!response.ok) throw await apiErrorFrom(response);
  return (await response.json()) as T;
}
