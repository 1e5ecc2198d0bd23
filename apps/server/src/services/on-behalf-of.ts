import { createHash } from 'node:crypto';

import { recordFinalStatus, ServiceError, traceOutgoingCall } from '@aegis/connectors';
import { NotAllowedError } from '@aegis/domain';
import { ConfidentialClientApplication } from '@azure/msal-node';
import { LRUCache } from 'lru-cache';

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
/** Tokens kept at once; the least recently used go first. */
const TOKEN_CACHE_SIZE = 1000;

interface GrantedToken {
  token: string;
  /** how long it may be reused */
  ttlInMs: number;
}

/** Granted tokens by key, each until it should be renewed. */
export class TokenCache {
  private readonly tokens: LRUCache<string, string>;

  /** `perf` is the clock expiry is measured on (tests move it). */
  constructor(perf?: { now(): number }) {
    // ttlResolution 0: expiry is read from the clock on every get, not from a value cached for 1 ms
    this.tokens = new LRUCache({
      max: TOKEN_CACHE_SIZE,
      ttlResolution: 0,
      ...(perf ? { perf } : {}),
    });
  }

  /** The cached token of `key`, or the one `grant` gets, kept for next time. */
  async get(key: string, grant: () => Promise<GrantedToken>): Promise<string> {
    const cached = this.tokens.get(key);
    if (cached !== undefined) return cached;
    const granted = await grant();
    if (granted.ttlInMs > 0) this.tokens.set(key, granted.token, { ttl: granted.ttlInMs });
    return granted.token;
  }
}

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

/**
 * Posts a grant to an authority's token endpoint: the token and when it should be renewed. The
 * call is traced like every outgoing call (ADR 061); the grant's body, which holds the secrets,
 * is not.
 */
async function postTokenGrant(
  fetchImpl: typeof fetch,
  url: string,
  params: Record<string, string>,
): Promise<GrantedToken> {
  let response: Response;
  try {
    response = await traceOutgoingCall(
      { service: 'identity', method: 'POST', url },
      async (span) => {
        const answer = await fetchImpl(url, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams(params),
        });
        recordFinalStatus(span, answer.status);
        return answer;
      },
    );
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
    ttlInMs: (body.expires_in ?? 3600) * 1000 - EARLY_EXPIRY_IN_MS,
  };
}

/**
 * The grant as RFC 7523 / Microsoft identity platform define it, posted to the authority's token
 * endpoint; the local identity provider implements the same grant.
 */
export class HttpOnBehalfOf implements OnBehalfOf {
  constructor(
    private readonly options: OnBehalfOfOptions,
    private readonly fetchImpl: typeof fetch = fetch,
    private readonly cache = new TokenCache(),
  ) {}

  acquire(
    assertion: string,
    { scopes, tenantId }: { scopes: readonly string[]; tenantId: string },
  ): Promise<string> {
    return this.cache.get(cacheKey(assertion, scopes, tenantId), () =>
      postTokenGrant(
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
      ),
    );
  }
}

/**
 * An MSAL token acquisition as a call to the identity provider (ADR 061), named by the authority's
 * token endpoint; `aegis.token.from_cache` says whether MSAL answered from its cache without
 * asking Entra.
 */
function tracedMsal<T extends { fromCache?: boolean } | null>(
  authority: string,
  acquire: () => Promise<T>,
): Promise<T> {
  return traceOutgoingCall(
    { service: 'identity', method: 'POST', url: `${authority}/oauth2/v2.0/token` },
    async (span) => {
      const result = await acquire();
      span.setAttribute('aegis.token.from_cache', result?.fromCache === true);
      return result;
    },
  );
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
      const authority = `${this.options.loginUrl}/${tenantId}`;
      const result = await tracedMsal(authority, () =>
        this.msal.acquireTokenOnBehalfOf({
          oboAssertion: assertion,
          scopes: [...scopes],
          authority,
        }),
      );
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
  constructor(
    private readonly options: ClientCredentialsOptions,
    private readonly fetchImpl: typeof fetch = fetch,
    private readonly cache = new TokenCache(),
  ) {}

  acquire(scopes: readonly string[]): Promise<string> {
    const scope = scopes.join(' ');
    return this.cache.get(scope, () =>
      postTokenGrant(
        this.fetchImpl,
        `${this.options.loginUrl}/${encodeURIComponent(this.options.tenantId)}/oauth2/v2.0/token`,
        {
          grant_type: 'client_credentials',
          client_id: this.options.clientId,
          client_secret: this.options.clientSecret,
          scope,
        },
      ),
    );
  }
}

/** Production: `@azure/msal-node` acquires and caches the app's own token. */
export class MsalClientCredentials implements AppOwnToken {
  private readonly msal: ConfidentialClientApplication;
  private readonly authority: string;

  constructor(options: ClientCredentialsOptions) {
    this.authority = `${options.loginUrl}/${options.tenantId}`;
    this.msal = new ConfidentialClientApplication({
      auth: {
        clientId: options.clientId,
        clientSecret: options.clientSecret,
        authority: this.authority,
      },
    });
  }

  async acquire(scopes: readonly string[]): Promise<string> {
    try {
      const result = await tracedMsal(this.authority, () =>
        this.msal.acquireTokenByClientCredential({ scopes: [...scopes] }),
      );
      if (!result?.accessToken) throw refusal('invalid_client', 'No token was issued.');
      return result.accessToken;
    } catch (error) {
      const { errorCode, errorMessage } = error as { errorCode?: string; errorMessage?: string };
      if (errorCode) throw refusal(errorCode, errorMessage ?? '');
      throw error;
    }
  }
}
