import Fastify, { type FastifyInstance } from 'fastify';
import { exportJWK, generateKeyPair, jwtVerify, SignJWT, type JWK } from 'jose';

import { STAFF_ACCOUNTS, type StaffAccount } from './staff-accounts';
import { audienceFor, registerTenantAuthorities, type TokenClaims } from './tenant-authority';
import {
  EMPTY_DIRECTORY,
  findTenant,
  type RegisteredApplication,
  type TenantDirectory,
} from './tenant-directory';

export interface IdentityProviderOptions {
  readonly port: number;
  readonly host?: string;
  /** The `aud` claim of issued tokens: the Aegis API's audience. */
  readonly audience: string;
  /** Origins allowed to call the token endpoint from a browser (the portal). */
  readonly allowedOrigins: readonly string[];
  readonly tokenLifetimeInSeconds?: number;
  /** The simulated client tenants: per-tenant authorities, Global Administrators, admin consent. */
  readonly directory?: TenantDirectory;
  /** App registrations (the Aegis portal's), for the popup, consent and on-behalf-of grants. */
  readonly applications?: readonly RegisteredApplication[];
  /** The staff's own tenant id, where the Aegis app asks for its own tokens (client credentials). */
  readonly homeTenantId?: string;
}

export interface IdentityProvider {
  readonly url: string;
  readonly issuer: string;
  readonly jwksUrl: string;
  readonly audience: string;
  /** Issues a token as the sign-in dialog would, for tests and scripts. */
  issueToken(upn: string): Promise<string>;
  /** A token as a client tenant's authority issues it (a Global Administrator's), for tests. */
  issueTenantToken(tenantIdOrDomain: string, audience: string, scp?: string): Promise<string>;
  /** The issuer of a client tenant's tokens: `{url}/{tenantId}/v2.0`, as Entra's v2 endpoint. */
  tenantIssuer(tenantId: string): string;
  /**
   * Signs exactly `claims` with the provider's key (no defaults added), so tests can build the
   * malformed tokens an attacker might send: no `exp`, `nbf` in the future, another audience.
   */
  signClaims(claims: Record<string, unknown>): Promise<string>;
  close(): Promise<void>;
}

const KEY_ID = 'aegis-local-idp-1';

/**
 * A local OpenID-style identity provider: the sign-in dialog's accounts, signed RS256 JWTs,
 * a JWKS endpoint and the Graph `/me/photo/$value` call. The Aegis server validates its
 * tokens through the same JWKS code path it uses for Entra ID.
 */
export async function startIdentityProvider(
  options: IdentityProviderOptions,
): Promise<IdentityProvider> {
  const { publicKey, privateKey } = await generateKeyPair('RS256', { extractable: true });
  const publicJwk: JWK = { ...(await exportJWK(publicKey)), kid: KEY_ID, alg: 'RS256', use: 'sig' };
  const lifetime = options.tokenLifetimeInSeconds ?? 8 * 60 * 60;

  const app: FastifyInstance = Fastify({ logger: false });
  let issuer = '';

  async function issueToken(
    account: StaffAccount,
    audience: string = options.audience,
  ): Promise<string> {
    return new SignJWT({
      upn: account.upn,
      preferred_username: account.upn,
      ...(account.displayName ? { name: account.displayName } : {}),
      oid: account.oid,
      scp: 'user_impersonation',
      ...(account.roles.length > 0 ? { roles: [...account.roles] } : {}),
    })
      .setProtectedHeader({ alg: 'RS256', kid: KEY_ID, typ: 'JWT' })
      .setIssuer(issuer)
      .setAudience(audience)
      .setSubject(account.oid)
      .setIssuedAt()
      .setExpirationTime(`${lifetime}s`)
      .sign(privateKey);
  }

  async function signTenantToken(claims: TokenClaims): Promise<string> {
    return new SignJWT({
      tid: claims.tenantId,
      oid: claims.account.oid,
      ...(claims.appOnly
        ? {
            idtyp: 'app',
            roles: ['Directory.ReadWrite.All'],
            app_displayname: claims.account.displayName,
          }
        : {
            upn: claims.account.upn,
            preferred_username: claims.account.upn,
            name: claims.account.displayName,
          }),
      ...(claims.scp ? { scp: claims.scp } : {}),
      appid: claims.appId,
      azp: claims.appId,
      ver: '2.0',
    })
      .setProtectedHeader({ alg: 'RS256', kid: KEY_ID, typ: 'JWT' })
      .setIssuer(claims.issuer)
      .setAudience(claims.audience)
      .setSubject(claims.account.oid)
      .setIssuedAt()
      .setExpirationTime(`${lifetime}s`)
      .sign(privateKey);
  }

  // OAuth 2.0 token and consent requests are form-encoded.
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string' },
    (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(String(body)))),
  );

  app.addHook('onRequest', async (request, reply) => {
    const origin = request.headers.origin;
    if (origin && options.allowedOrigins.includes(origin)) {
      reply.header('access-control-allow-origin', origin);
      reply.header('access-control-allow-headers', 'authorization, content-type');
      reply.header('access-control-allow-methods', 'GET, POST, OPTIONS');
      reply.header('vary', 'origin');
    }
  });
  app.options('/*', async (_request, reply) => reply.code(204).send());

  app.get('/.well-known/openid-configuration', () => ({
    issuer,
    jwks_uri: `${issuer}/discovery/v2.0/keys`,
    token_endpoint: `${issuer}/oauth2/v2.0/token`,
    id_token_signing_alg_values_supported: ['RS256'],
  }));
  app.get('/discovery/v2.0/keys', () => ({ keys: [publicJwk] }));
  app.get('/:tenant/discovery/v2.0/keys', () => ({ keys: [publicJwk] }));

  const directory = options.directory ?? EMPTY_DIRECTORY;
  registerTenantAuthorities(app, {
    baseUrl: () => issuer,
    directory,
    applications: options.applications ?? [],
    redirectOrigins: options.allowedOrigins,
    publicKey,
    sign: signTenantToken,
    lifetimeInSeconds: lifetime,
    ...(options.homeTenantId ? { homeTenantId: options.homeTenantId } : {}),
  });

  app.get('/accounts', () => ({
    value: STAFF_ACCOUNTS.map(({ upn, displayName, roles }) => ({
      upn,
      displayName: displayName ?? null,
      roles,
    })),
  }));

  // The sign-in dialog's token, for the Aegis API; with `scope`, for another resource (a script's
  // own Azure DevOps token, as `az account get-access-token --resource` gives one).
  app.post<{ Body: { username?: unknown; scope?: unknown } }>(
    '/oauth2/v2.0/token',
    async (request, reply) => {
      const username = typeof request.body?.username === 'string' ? request.body.username : '';
      const scope = typeof request.body?.scope === 'string' ? request.body.scope : '';
      const scoped = scope ? audienceFor(scope) : { audience: options.audience };
      if ('error' in scoped)
        return reply.code(400).send({ error: 'invalid_scope', error_description: scoped.error });
      const account = STAFF_ACCOUNTS.find((a) => a.upn.toLowerCase() === username.toLowerCase());
      if (!account) {
        return reply.code(400).send({
          error: 'invalid_grant',
          error_description: `AADSTS50034: The user account ${username || '(empty)'} does not exist in this directory.`,
        });
      }
      return {
        token_type: 'Bearer',
        expires_in: lifetime,
        access_token: await issueToken(account, scoped.audience),
      };
    },
  );

  // Graph's profile photo: the portal shows a default photo when this fails (spec 1 §7).
  app.get('/v1.0/me/photo/$value', async (request, reply) => {
    const account = await accountFromBearer(request.headers.authorization);
    if (!account)
      return reply.code(401).send({
        error: {
          code: 'InvalidAuthenticationToken',
          message: 'Access token is empty or invalid.',
        },
      });
    if (!account.photoInitials) {
      return reply.code(404).send({
        error: {
          code: 'ImageNotFound',
          message:
            "Exception of type 'Microsoft.Fast.Profile.Core.Exception.ImageNotFoundException' was thrown.",
        },
      });
    }
    return reply.type('image/svg+xml').send(photoSvg(account));
  });

  async function accountFromBearer(header: string | undefined): Promise<StaffAccount | undefined> {
    const token = header?.startsWith('Bearer ') ? header.slice(7) : '';
    if (!token) return undefined;
    try {
      const { payload } = await jwtVerify(token, publicKey, { issuer });
      return STAFF_ACCOUNTS.find((a) => a.oid === payload.oid);
    } catch {
      return undefined;
    }
  }

  const address = await app.listen({ port: options.port, host: options.host ?? '127.0.0.1' });
  const url = address;
  issuer = url;

  return {
    url,
    issuer,
    jwksUrl: `${url}/discovery/v2.0/keys`,
    audience: options.audience,
    issueToken: async (upn) => {
      const account = STAFF_ACCOUNTS.find((a) => a.upn === upn);
      if (!account) throw new Error(`No sample staff account ${upn}`);
      return issueToken(account);
    },
    issueTenantToken: async (tenantIdOrDomain, audience, scp = 'user_impersonation') => {
      const tenant = findTenant(directory, tenantIdOrDomain);
      const account = tenant?.globalAdministrators[0];
      if (!tenant || !account) throw new Error(`No simulated tenant ${tenantIdOrDomain}`);
      return signTenantToken({
        tenantId: tenant.tenantId,
        account,
        audience,
        scp,
        issuer: `${url}/${tenant.tenantId}/v2.0`,
        appId: options.applications?.[0]?.clientId ?? '',
      });
    },
    tenantIssuer: (tenantId) => `${url}/${tenantId}/v2.0`,
    signClaims: (claims) =>
      new SignJWT(claims)
        .setProtectedHeader({ alg: 'RS256', kid: KEY_ID, typ: 'JWT' })
        .sign(privateKey),
    close: () => app.close(),
  };
}

function photoSvg(account: StaffAccount): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" width="96" height="96" viewBox="0 0 96 96"><rect width="96" height="96" fill="${account.photoColour ?? '#444'}"/><text x="48" y="60" font-family="Segoe UI, Arial, sans-serif" font-size="36" fill="#fff" text-anchor="middle">${account.photoInitials ?? ''}</text></svg>`;
}
