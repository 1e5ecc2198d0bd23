import type { ClientTenantAuth } from '@aegis/contracts';
import { textOf } from '@aegis/domain';
import { decodeJwt } from 'jose';

import { GlobalAdminSignInError, type ClientTenantSession } from './client-tenant-session';

const POLL_INTERVAL_IN_MS = 200;

function randomUrlSafe(bytes: number): string {
  const data = crypto.getRandomValues(new Uint8Array(bytes));
  return base64Url(data);
}

function base64Url(data: Uint8Array): string {
  return btoa(String.fromCharCode(...data))
    .replaceAll('+', '-')
    .replaceAll('/', '_')
    .replace(/=+$/, '');
}

async function challengeOf(verifier: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier));
  return base64Url(new Uint8Array(digest));
}

/** The popup's address once it is back on our origin, or undefined while it is elsewhere. */
function sameOriginAddress(popup: Window): string | undefined {
  try {
    return popup.location.href;
  } catch {
    return undefined;
  }
}

/**
 * The authorization code flow with PKCE in a popup, as MSAL runs it: open the authority's
 * authorize page, wait for the redirect back to our origin, exchange the code.
 */
export async function localPopupSignIn(
  config: ClientTenantAuth,
  tenant: string,
): Promise<ClientTenantSession> {
  const verifier = randomUrlSafe(32);
  const state = randomUrlSafe(16);
  const redirectUri = `${window.location.origin}/auth-popup.html`;
  const scope = `openid profile offline_access ${config.apiScope}`;
  const authorize = new URL(
    `${config.loginUrl}/${encodeURIComponent(tenant)}/oauth2/v2.0/authorize`,
  );
  authorize.search = new URLSearchParams({
    client_id: config.clientId,
    response_type: 'code',
    redirect_uri: redirectUri,
    scope,
    state,
    code_challenge: await challengeOf(verifier),
    code_challenge_method: 'S256',
    prompt: 'select_account',
  }).toString();

  const popup = window.open(authorize.toString(), 'aegis-global-admin', 'width=520,height=680');
  if (!popup)
    throw new GlobalAdminSignInError(
      'popup_window_error',
      'The sign-in popup was blocked. Allow popups for this site and try again.',
    );

  const returned = await new Promise<URL>((resolve, reject) => {
    const timer = window.setInterval(() => {
      if (popup.closed) {
        window.clearInterval(timer);
        reject(new GlobalAdminSignInError('user_cancelled', 'The sign-in window was closed.'));
        return;
      }
      const address = sameOriginAddress(popup);
      if (!address?.startsWith(redirectUri)) return;
      window.clearInterval(timer);
      popup.close();
      resolve(new URL(address));
    }, POLL_INTERVAL_IN_MS);
  });

  const params = returned.searchParams;
  const error = params.get('error');
  if (error) throw new GlobalAdminSignInError(error, params.get('error_description') ?? '');
  if (params.get('state') !== state)
    throw new GlobalAdminSignInError(
      'state_mismatch',
      'The sign-in answer does not match the request.',
    );

  const response = await fetch(
    `${config.loginUrl}/${encodeURIComponent(tenant)}/oauth2/v2.0/token`,
    {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        client_id: config.clientId,
        code: params.get('code') ?? '',
        redirect_uri: redirectUri,
        code_verifier: verifier,
        scope,
      }),
    },
  );
  const body = (await response.json()) as {
    access_token?: string;
    expires_in?: number;
    error?: string;
    error_description?: string;
  };
  if (!response.ok || !body.access_token)
    throw new GlobalAdminSignInError(body.error ?? 'invalid_grant', body.error_description ?? '');
  const claims = decodeJwt(body.access_token);
  return {
    tenantId: textOf(claims.tid ?? ''),
    upn: textOf(claims.upn ?? claims.preferred_username ?? ''),
    displayName: typeof claims.name === 'string' ? claims.name : null,
    accessToken: body.access_token,
    expiresAt: Date.now() + (body.expires_in ?? 3600) * 1000,
  };
}
