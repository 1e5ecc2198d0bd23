import { createHash, randomBytes } from 'node:crypto';

import type { FastifyInstance, FastifyReply } from 'fastify';
import { jwtVerify, type generateKeyPair, type JWTPayload } from 'jose';

import { consentPage, errorPage, signInPage } from './pages';
import {
  findTenant,
  type DirectoryAccount,
  type DirectoryTenant,
  type RegisteredApplication,
  type TenantDirectory,
} from './tenant-directory';

/** Entra's multi-tenant authority names. */
const MULTI_TENANT = new Set(['common', 'organizations']);
const OIDC_SCOPES = new Set(['openid', 'profile', 'email', 'offline_access']);
const GRAPH = 'https://graph.microsoft.com';
const CODE_LIFETIME_MS = 5 * 60_000;
const GRANT_OBO = 'urn:ietf:params:oauth:grant-type:jwt-bearer';

export interface TokenClaims {
  readonly tenantId: string;
  readonly account: DirectoryAccount;
  readonly audience: string;
  readonly scp: string;
  readonly issuer: string;
  readonly appId: string;
  /** an application's own token (client credentials): no user, `idtyp` app */
  readonly appOnly?: boolean;
}

export interface TenantAuthorityOptions {
  readonly baseUrl: () => string;
  readonly directory: TenantDirectory;
  readonly applications: readonly RegisteredApplication[];
  /** Origins whose redirect URIs are registered (the portal). */
  readonly redirectOrigins: readonly string[];
  readonly publicKey: Awaited<ReturnType<typeof generateKeyPair>>['publicKey'];
  readonly sign: (claims: TokenClaims) => Promise<string>;
  readonly lifetimeInSeconds: number;
  /**
   * The MSP's own tenant (the staff's): its client-credentials tokens are issued by the staff
   * issuer, as the Aegis server's service identity for Azure DevOps needs them (ADR 051).
   */
  readonly homeTenantId?: string;
}

interface Grant {
  readonly tenantId: string;
  readonly account: DirectoryAccount;
  readonly clientId: string;
}

interface PendingCode extends Grant {
  readonly redirectUri: string;
  readonly codeChallenge?: string;
  readonly scope: string;
  readonly expiresAt: number;
}

/** `https://graph.microsoft.com/User.Read` → its resource and permission; bare names are Graph's. */
export function resourceOfScope(scope: string): { resource: string; permission: string } {
  const lastSlash = scope.lastIndexOf('/');
  if (lastSlash <= 0) return { resource: GRAPH, permission: scope };
  return { resource: scope.slice(0, lastSlash), permission: scope.slice(lastSlash + 1) };
}

/**
 * The resource and `scp` of a token asked for with `scope`; Entra issues a token for one
 * resource at a time (AADSTS28000 otherwise).
 */
export function audienceFor(scope: string): { audience: string; scp: string } | { error: string } {
  const requested = scope
    .split(/\s+/)
    .filter((s) => s && !OIDC_SCOPES.has(s))
    .map(resourceOfScope);
  const first = requested[0];
  if (!first) return { audience: GRAPH, scp: 'User.Read' };
  if (requested.some((r) => r.resource !== first.resource))
    return {
      error:
        'AADSTS28000: Provided value for the input parameter scope is not valid because it contains more than one resource.',
    };
  return {
    audience: first.resource,
    scp: requested
      .map((r) => (r.permission === '.default' ? 'user_impersonation' : r.permission))
      .join(' '),
  };
}

function pkceMatches(verifier: string, challenge: string): boolean {
  return createHash('sha256').update(verifier).digest('base64url') === challenge;
}

function oauthError(reply: FastifyReply, error: string, description: string, status = 400) {
  return reply.code(status).send({ error, error_description: description });
}

/**
 * Per-tenant authorities of the simulated client tenants (`/{tenant}/…`, tenant = id, domain,
 * `common` or `organizations`): OpenID configuration, JWKS, the authorization-code popup with PKCE,
 * the token endpoint (authorization code, refresh token, on-behalf-of) and admin consent.
 */
export function registerTenantAuthorities(
  app: FastifyInstance,
  options: TenantAuthorityOptions,
): void {
  const codes = new Map<string, PendingCode>();
  const refreshTokens = new Map<string, Grant>();
  const { directory } = options;
  const issuerOf = (tenantId: string) => `${options.baseUrl()}/${tenantId}/v2.0`;
  const application = (clientId: string) =>
    options.applications.find((a) => a.clientId === clientId);
  const redirectAllowed = (uri: string) => {
    try {
      return options.redirectOrigins.includes(new URL(uri).origin);
    } catch {
      return false;
    }
  };
  /** The tenants an authority path may sign in to: one, or all for `common`. */
  const tenantsOf = (authority: string): DirectoryTenant[] | undefined => {
    if (MULTI_TENANT.has(authority.toLowerCase())) return [...directory.tenants()];
    const tenant = findTenant(directory, authority);
    return tenant ? [tenant] : undefined;
  };
  const accountsOf = (tenants: readonly DirectoryTenant[]) =>
    tenants.flatMap((tenant) =>
      tenant.globalAdministrators.map((account) => ({ account, tenant })),
    );
  const tenantNotFound = (reply: FastifyReply, authority: string) =>
    oauthError(
      reply,
      'invalid_tenant',
      `AADSTS90002: Tenant '${authority}' not found. Check to make sure you have the correct tenant ID and are signing into the correct cloud.`,
    );

  function openIdConfiguration(authority: string, reply: FastifyReply) {
    const multi = MULTI_TENANT.has(authority.toLowerCase());
    const tenant = multi ? undefined : findTenant(directory, authority);
    if (!multi && !tenant) return tenantNotFound(reply, authority);
    const base = `${options.baseUrl()}/${tenant?.tenantId ?? authority}`;
    return {
      issuer: issuerOf(tenant?.tenantId ?? '{tenantid}'),
      authorization_endpoint: `${base}/oauth2/v2.0/authorize`,
      token_endpoint: `${base}/oauth2/v2.0/token`,
      jwks_uri: `${base}/discovery/v2.0/keys`,
      response_types_supported: ['code', 'id_token', 'code id_token', 'id_token token'],
      subject_types_supported: ['pairwise'],
      id_token_signing_alg_values_supported: ['RS256'],
      scopes_supported: ['openid', 'profile', 'email', 'offline_access'],
      tenant_region_scope: 'EU',
    };
  }
  app.get<{ Params: { tenant: string } }>(
    '/:tenant/v2.0/.well-known/openid-configuration',
    async (request, reply) => openIdConfiguration(request.params.tenant, reply),
  );
  app.get<{ Params: { tenant: string } }>(
    '/:tenant/.well-known/openid-configuration',
    async (request, reply) => openIdConfiguration(request.params.tenant, reply),
  );

  // -- Authorization code with PKCE (the Global Administrator's popup) -------------------------
  interface AuthorizeQuery {
    client_id?: string;
    redirect_uri?: string;
    state?: string;
    scope?: string;
    code_challenge?: string;
    code_challenge_method?: string;
    nonce?: string;
    response_type?: string;
  }
  app.get<{ Params: { tenant: string }; Querystring: AuthorizeQuery }>(
    '/:tenant/oauth2/v2.0/authorize',
    async (request, reply) => {
      const { tenant } = request.params;
      const query = request.query;
      const app_ = application(query.client_id ?? '');
      if (!app_)
        return reply
          .code(400)
          .type('text/html')
          .send(
            errorPage(
              `AADSTS700016: Application with identifier '${query.client_id ?? ''}' was not found in the directory.`,
            ),
          );
      if (!query.redirect_uri || !redirectAllowed(query.redirect_uri))
        return reply
          .code(400)
          .type('text/html')
          .send(
            errorPage(
              'AADSTS50011: The redirect URI specified in the request does not match the redirect URIs configured for the application.',
            ),
          );
      const tenants = tenantsOf(tenant);
      if (!tenants)
        return reply
          .code(400)
          .type('text/html')
          .send(errorPage(`AADSTS90002: Tenant '${tenant}' not found.`));
      return reply.type('text/html').send(
        signInPage({
          action: `${options.baseUrl()}/${tenant}/oauth2/v2.0/authorize`,
          appName: app_.displayName,
          accounts: accountsOf(tenants),
          fields: {
            client_id: app_.clientId,
            redirect_uri: query.redirect_uri,
            state: query.state ?? '',
            scope: query.scope ?? '',
            code_challenge: query.code_challenge ?? '',
          },
        }),
      );
    },
  );

  app.post<{ Params: { tenant: string }; Body: Record<string, string | undefined> }>(
    '/:tenant/oauth2/v2.0/authorize',
    async (request, reply) => {
      const body = request.body ?? {};
      const redirectUri = body.redirect_uri ?? '';
      if (!application(body.client_id ?? '') || !redirectAllowed(redirectUri))
        return reply.code(400).type('text/html').send(errorPage('AADSTS900144: Invalid request.'));
      const target = new URL(redirectUri);
      if (body.state) target.searchParams.set('state', body.state);
      if (body.decision !== 'sign-in') {
        target.searchParams.set('error', 'access_denied');
        target.searchParams.set(
          'error_description',
          'AADSTS50058: The user cancelled the sign-in.',
        );
        return reply.redirect(target.toString(), 302);
      }
      const match = accountsOf(tenantsOf(request.params.tenant) ?? []).find(
        ({ account }) => account.upn.toLowerCase() === (body.upn ?? '').toLowerCase(),
      );
      if (!match)
        return reply
          .code(400)
          .type('text/html')
          .send(errorPage(`AADSTS50034: The user account ${body.upn ?? ''} does not exist.`));
      const code = randomBytes(24).toString('base64url');
      codes.set(code, {
        tenantId: match.tenant.tenantId,
        account: match.account,
        clientId: body.client_id ?? '',
        redirectUri,
        codeChallenge: body.code_challenge || undefined,
        scope: body.scope ?? '',
        expiresAt: Date.now() + CODE_LIFETIME_MS,
      });
      target.searchParams.set('code', code);
      return reply.redirect(target.toString(), 302);
    },
  );

  // -- Token endpoint ------------------------------------------------------------------------
  app.post<{ Params: { tenant: string }; Body: Record<string, string | undefined> }>(
    '/:tenant/oauth2/v2.0/token',
    async (request, reply) => {
      const body = request.body ?? {};
      const client = application(body.client_id ?? '');
      if (!client)
        return oauthError(
          reply,
          'unauthorized_client',
          `AADSTS700016: Application with identifier '${body.client_id ?? ''}' was not found in the directory.`,
        );
      const scoped = audienceFor(body.scope ?? '');
      if ('error' in scoped) return oauthError(reply, 'invalid_scope', scoped.error);

      /** Entra's token answer: an access token for the scope's resource, and what else applies. */
      const answer = async (
        claims: Omit<TokenClaims, 'audience' | 'scp'>,
        extra: { idToken?: boolean; refreshGrant?: Grant } = {},
      ) => {
        const delegated = !claims.appOnly;
        const access: TokenClaims = {
          ...claims,
          audience: scoped.audience,
          scp: delegated ? scoped.scp : '',
        };
        let refreshToken: string | undefined;
        if (extra.refreshGrant) {
          refreshToken = randomBytes(32).toString('base64url');
          refreshTokens.set(refreshToken, extra.refreshGrant);
        }
        return {
          token_type: 'Bearer',
          // an application's own token names no delegated scope
          ...(delegated ? { scope: body.scope ?? '' } : {}),
          expires_in: options.lifetimeInSeconds,
          access_token: await options.sign(access),
          ...(extra.idToken
            ? { id_token: await options.sign({ ...access, audience: claims.appId, scp: '' }) }
            : {}),
          ...(refreshToken ? { refresh_token: refreshToken } : {}),
        };
      };
      /** A user's sign-in (code or refresh): an access token, an id token and a refresh token. */
      const issue = (grant: Grant) =>
        answer(
          {
            tenantId: grant.tenantId,
            account: grant.account,
            issuer: issuerOf(grant.tenantId),
            appId: grant.clientId,
          },
          { idToken: true, refreshGrant: grant },
        );
      /** Confidential grants (client credentials, on-behalf-of) need the app's secret. */
      const secretRefused = () =>
        !client.clientSecret || body.client_secret !== client.clientSecret
          ? oauthError(
              reply,
              'invalid_client',
              'AADSTS7000215: Invalid client secret provided.',
              401,
            )
          : undefined;

      if (body.grant_type === 'authorization_code') {
        const pending = codes.get(body.code ?? '');
        codes.delete(body.code ?? '');
        if (!pending || pending.expiresAt < Date.now() || pending.clientId !== client.clientId)
          return oauthError(
            reply,
            'invalid_grant',
            'AADSTS70008: The provided authorization code or refresh token has expired or was already used.',
          );
        if (body.redirect_uri !== pending.redirectUri)
          return oauthError(
            reply,
            'invalid_grant',
            'AADSTS50148: The redirect_uri does not match the one of the authorization request.',
          );
        if (pending.codeChallenge && !pkceMatches(body.code_verifier ?? '', pending.codeChallenge))
          return oauthError(
            reply,
            'invalid_grant',
            'AADSTS501481: The Code_Verifier does not match the code_challenge supplied in the authorization request.',
          );
        return issue(pending);
      }

      if (body.grant_type === 'refresh_token') {
        const grant = refreshTokens.get(body.refresh_token ?? '');
        if (!grant || grant.clientId !== client.clientId)
          return oauthError(
            reply,
            'invalid_grant',
            'AADSTS70000: The provided grant is invalid or malformed.',
          );
        return issue(grant);
      }

      // Client credentials (an agent's app-only token for a client tenant, `{resource}/.default`).
      if (body.grant_type === 'client_credentials') {
        const refused = secretRefused();
        if (refused) return refused;
        if (options.homeTenantId && request.params.tenant === options.homeTenantId) {
          return answer({
            tenantId: options.homeTenantId,
            account: { oid: client.clientId, upn: '', displayName: client.displayName },
            issuer: options.baseUrl(),
            appId: client.clientId,
            appOnly: true,
          });
        }
        const tenant = findTenant(directory, request.params.tenant);
        if (!tenant)
          return oauthError(
            reply,
            'invalid_request',
            `AADSTS90002: Tenant '${request.params.tenant}' not found.`,
          );
        return answer({
          tenantId: tenant.tenantId,
          account: { oid: client.clientId, upn: '', displayName: client.displayName },
          issuer: issuerOf(tenant.tenantId),
          appId: client.clientId,
          appOnly: true,
        });
      }

      if (body.grant_type === GRANT_OBO && body.requested_token_use === 'on_behalf_of') {
        const refused = secretRefused();
        if (refused) return refused;
        let payload: JWTPayload;
        try {
          ({ payload } = await jwtVerify(body.assertion ?? '', options.publicKey));
        } catch (error) {
          return oauthError(
            reply,
            'invalid_grant',
            `AADSTS50013: Assertion failed signature validation. ${(error as Error).message}`,
          );
        }
        const audiences = [client.apiAudience, client.clientId].filter(Boolean);
        if (!audiences.includes(String(payload.aud)))
          return oauthError(
            reply,
            'invalid_grant',
            'AADSTS50013: Assertion audience does not match the Client app presenting the assertion.',
          );
        return answer({
          tenantId: String(payload.tid ?? ''),
          account: {
            oid: String(payload.oid ?? payload.sub ?? ''),
            upn: String(payload.upn ?? payload.preferred_username ?? ''),
            displayName: String(payload.name ?? ''),
          },
          issuer: String(payload.iss ?? ''),
          appId: client.clientId,
        });
      }
      return oauthError(
        reply,
        'unsupported_grant_type',
        `AADSTS70003: The app requested an unsupported grant type '${body.grant_type ?? ''}'.`,
      );
    },
  );

  // -- Admin consent (v1-style endpoint, spec 2 §7) -------------------------------------------
  app.get<{
    Params: { tenant: string };
    Querystring: { client_id?: string; redirect_uri?: string; state?: string };
  }>('/:tenant/adminconsent', async (request, reply) => {
    const { tenant } = request.params;
    const { client_id: clientId = '', redirect_uri: redirectUri = '', state = '' } = request.query;
    const app_ = application(clientId);
    if (!app_)
      return reply
        .code(400)
        .type('text/html')
        .send(
          errorPage(
            `AADSTS700016: Application with identifier '${clientId}' was not found in the directory.`,
          ),
        );
    if (!redirectAllowed(redirectUri))
      return reply
        .code(400)
        .type('text/html')
        .send(
          errorPage(
            'AADSTS50011: The redirect URI specified in the request does not match the redirect URIs configured for the application.',
          ),
        );
    const tenants = tenantsOf(tenant);
    if (!tenants)
      return reply
        .code(400)
        .type('text/html')
        .send(errorPage(`AADSTS90002: Tenant '${tenant}' not found.`));
    return reply.type('text/html').send(
      consentPage({
        action: `${options.baseUrl()}/${tenant}/adminconsent`,
        appName: app_.displayName,
        permissions: app_.permissions,
        accounts: accountsOf(tenants),
        fields: { client_id: clientId, redirect_uri: redirectUri, state },
      }),
    );
  });

  app.post<{ Params: { tenant: string }; Body: Record<string, string | undefined> }>(
    '/:tenant/adminconsent',
    async (request, reply) => {
      const body = request.body ?? {};
      const clientId = body.client_id ?? '';
      const redirectUri = body.redirect_uri ?? '';
      if (!application(clientId) || !redirectAllowed(redirectUri))
        return reply.code(400).type('text/html').send(errorPage('AADSTS900144: Invalid request.'));
      const target = new URL(redirectUri);
      const finish = (params: Record<string, string>) => {
        for (const [key, value] of Object.entries(params)) target.searchParams.set(key, value);
        target.searchParams.set('state', body.state ?? '');
        return reply.redirect(target.toString(), 302);
      };
      if (body.decision !== 'accept')
        return finish({
          error: 'access_denied',
          error_description:
            'AADSTS65004: User declined to consent to access the app. The admin canceled the request.',
        });
      const match = accountsOf(tenantsOf(request.params.tenant) ?? []).find(
        ({ account }) => account.upn.toLowerCase() === (body.upn ?? '').toLowerCase(),
      );
      if (!match)
        return reply
          .code(400)
          .type('text/html')
          .send(errorPage(`AADSTS50034: The user account ${body.upn ?? ''} does not exist.`));
      const outcome = await directory.grantAdminConsent(match.tenant.tenantId, clientId);
      if (!outcome.granted)
        return finish({ error: outcome.error, error_description: outcome.errorDescription });
      return finish({ admin_consent: 'True', tenant: match.tenant.tenantId });
    },
  );
}
