import { createHash } from 'node:crypto';

import { ServiceError } from '@aegis/connectors';
import { NotAllowedError } from '@aegis/domain';
import { ConfidentialClientApplication } from '@azure/msal-node';

/**
 * OAuth 2.0 on-behalf-of (ADR 020): the server trades a caller's token for its API for a token
 * of a downstream resource (Azure DevOps, Graph, ARM), so every token has the right audience
 * and every downstream call runs with the caller's own permissions.
 */
export interface OnBehalfOf {
  /** A token for `scopes` (one resource) on behalf of the user of `assertion`, in `tenantId`. */
  acquire(
    assertion: string,
    options: { scopes: readonly string[]; tenantId: string },
  ): Promise<string>;
}

export interface OnBehalfOfOptions {
  /** `https://login.microsoftonline.com` or the local identity provider. */
  readonly loginUrl: string;
  readonly clientId: string;
  readonly clientSecret: string;
}

/** Tokens are reused until a minute before they expire. */
const EARLY_EXPIRY_IN_MS = 60_000;

function cacheKey(assertion: string, scopes: readonly string[], tenantId: string): string {
  return createHash('sha256')
    .update(`${tenantId}\n${scopes.join(' ')}\n${assertion}`)
    .digest('base64url');
}

/** Entra's answer to a refused exchange (consent missing, user not allowed) is the caller's problem. */
function refusal(error: string, description: string): Error {
  if (['invalid_grant', 'consent_required', 'interaction_required'].includes(error))
    return new NotAllowedError(description || error);
  return new ServiceError(description || error, { service: 'identity', code: error });
}

/** Posts a grant to an authority's token endpoint: the token and when it should be renewed. */
async function postTokenGrant(
  fetchImpl: typeof fetch,
  url: string,
  params: Record<string, string>,
): Promise<{ token: string; expiresAt: number }> {
  let response: Response;
  try {
    response = await fetchImpl(url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(params),
    });
  } catch (cause) {
    throw new ServiceError('The identity provider could not be reached.', {
      service: 'identity',
      cause,
    });
  }
  const body = (await response.json().catch(() => ({}))) as {
    access_token?: string;
    expires_in?: number;
    error?: string;
    error_description?: string;
  };
  if (!response.ok || !body.access_token)
    throw refusal(body.error ?? `status ${response.status}`, body.error_description ?? '');
  return {
    token: body.access_token,
    expiresAt: Date.now() + (body.expires_in ?? 3600) * 1000 - EARLY_EXPIRY_IN_MS,
  };
}

/**
 * The grant as RFC 7523 / Microsoft identity platform define it, posted to the authority's token
 * endpoint; the local identity provider implements the same grant.
 */
export class HttpOnBehalfOf implements OnBehalfOf {
  private readonly cache = new Map<string, { token: string; expiresAt: number }>();

  constructor(
    private readonly options: OnBehalfOfOptions,
    private readonly fetchImpl: typeof fetch = fetch,
  ) {}

  async acquire(
    assertion: string,
    { scopes, tenantId }: { scopes: readonly string[]; tenantId: string },
  ): Promise<string> {
    const key = cacheKey(assertion, scopes, tenantId);
    const cached = this.cache.get(key);
    if (cached && cached.expiresAt > Date.now()) return cached.token;

    const granted = await postTokenGrant(
      this.fetchImpl,
      `${this.options.loginUrl}/${encodeURIComponent(tenantId)}/oauth2/v2.0/token`,
      {
        grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer',
        requested_token_use: 'on_behalf_of',
        client_id: this.options.clientId,
        client_secret: this.options.clientSecret,
        assertion,
        scope: scopes.join(' '),
      },
    );
    this.cache.set(key, granted);
    if (this.cache.size > 1000) this.cache.delete(this.cache.keys().next().value ?? '');
    return granted.token;
  }
}

/** Production: `@azure/msal-node`'s confidential client does the same exchange and caches it. */
export class MsalOnBehalfOf implements OnBehalfOf {
  private readonly msal: ConfidentialClientApplication;

  constructor(private readonly options: OnBehalfOfOptions) {
    this.msal = new ConfidentialClientApplication({
      auth: {
        clientId: options.clientId,
        clientSecret: options.clientSecret,
        authority: `${options.loginUrl}/organizations`,
      },
    });
  }

  async acquire(
    assertion: string,
    { scopes, tenantId }: { scopes: readonly string[]; tenantId: string },
  ): Promise<string> {
    try {
      const result = await this.msal.acquireTokenOnBehalfOf({
        oboAssertion: assertion,
        scopes: [...scopes],
        authority: `${this.options.loginUrl}/${tenantId}`,
      });
      if (!result?.accessToken) throw refusal('invalid_grant', 'No token was issued.');
      return result.accessToken;
    } catch (error) {
      const { errorCode, errorMessage } = error as { errorCode?: string; errorMessage?: string };
      if (errorCode) throw refusal(errorCode, errorMessage ?? '');
      throw error;
    }
  }
}

/**
 * The Aegis app's own token (client credentials) in the MSP's tenant: the service identity that
 * makes Aegis's own small writes to the configuration repository's main (ADR 051).
 */
export interface AppOwnToken {
  acquire(scopes: readonly string[]): Promise<string>;
}

export interface ClientCredentialsOptions extends OnBehalfOfOptions {
  /** the MSP's (staff) tenant, where the app's service principal lives */
  readonly tenantId: string;
}

/** The client-credentials grant posted to the authority's token endpoint (the local identity provider). */
export class HttpClientCredentials implements AppOwnToken {
  private readonly cache = new Map<string, { token: string; expiresAt: number }>();

  constructor(
    private readonly options: ClientCredentialsOptions,
    private readonly fetchImpl: typeof fetch = fetch,
  ) {}

  async acquire(scopes: readonly string[]): Promise<string> {
    const key = scopes.join(' ');
    const cached = this.cache.get(key);
    if (cached && cached.expiresAt > Date.now()) return cached.token;
    const granted = await postTokenGrant(
      this.fetchImpl,
      `${this.options.loginUrl}/${encodeURIComponent(this.options.tenantId)}/oauth2/v2.0/token`,
      {
        grant_type: 'client_credentials',
        client_id: this.options.clientId,
        client_secret: this.options.clientSecret,
        scope: key,
      },
    );
    this.cache.set(key, granted);
    return granted.token;
  }
}

/** Production: `@azure/msal-node` acquires and caches the app's own token. */
export class MsalClientCredentials implements AppOwnToken {
  private readonly msal: ConfidentialClientApplication;

  constructor(options: ClientCredentialsOptions) {
    this.msal = new ConfidentialClientApplication({
      auth: {
        clientId: options.clientId,
        clientSecret: options.clientSecret,
        authority: `${options.loginUrl}/${options.tenantId}`,
      },
    });
  }

  async acquire(scopes: readonly string[]): Promise<string> {
    try {
      const result = await this.msal.acquireTokenByClientCredential({ scopes: [...scopes] });
      if (!result?.accessToken) throw refusal('invalid_client', 'No token was issued.');
      return result.accessToken;
    } catch (error) {
      const { errorCode, errorMessage } = error as { errorCode?: string; errorMessage?: string };
      if (errorCode) throw refusal(errorCode, errorMessage ?? '');
      throw error;
    }
  }
}
