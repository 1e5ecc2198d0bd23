import {
  aegisRolesOf,
  AuthenticationError,
  hasRole,
  isAegisRole,
  NotAllowedError,
  roleRequiredMessage,
  type AegisRole,
} from '@aegis/domain';
import type { FastifyInstance, FastifyRequest, RouteOptions } from 'fastify';
import fp from 'fastify-plugin';
import { createRemoteJWKSet, jwtVerify, type JWTVerifyGetKey } from 'jose';

import { registering } from '../lib/registering';
import { isApiRequest } from '../lib/request-path';

interface SignedInUser {
  readonly oid: string;
  readonly upn: string;
  readonly displayName?: string;
  /** The Aegis app roles in the token's `roles` claim; empty for an account without any. */
  readonly roles: readonly AegisRole[];
  /** The account's tenant (`tid`), where tokens on its behalf are asked for. */
  readonly tenantId?: string;
}

/**
 * Who may call a route, declared in its options next to its schema:
 * `config: { access: 'public' }` for the rare public routes, `config: { access: 'signed-in' }`
 * for what any signed-in account may ask (who am I), otherwise `config: { role: ... }`.
 */
export type RouteAccess =
  { readonly access: 'public' | 'signed-in' } | { readonly role: AegisRole };

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * `public`: no token needed (health, the OpenAPI document); `signed-in`: any valid token,
     * with or without an Aegis role (who am I).
     */
    access?: 'public' | 'signed-in';
    /** The least Aegis role a caller needs (roles include the ones below them). */
    role?: AegisRole;
    /**
     * A public change made with a client tenant's Global Administrator token instead of an Aegis
     * sign-in (the open Global Admin tool): audited with that administrator as the actor.
     */
    auditAsClientTenantAdministrator?: boolean;
  }
  interface FastifyRequest {
    /** Set for every authenticated /api request. */
    user: SignedInUser;
    /** The caller's bearer token, forwarded to Azure DevOps on their behalf. */
    accessToken: string;
  }
}

export interface AuthPluginOptions {
  readonly jwksUrl: string;
  readonly issuer: string;
  readonly audience: string;
}

/**
 * Who did it, as Aegis records it on what a signed-in person changed or sent: the account's user
 * name, else its display name (a token may carry neither).
 */
export function actorName(user: SignedInUser): string {
  return user.upn || user.displayName || 'unknown user';
}

/** Routes whose registered path is under /api are the API; the others serve the SPA shell. */
export function isApiRoute(url: string): boolean {
  return url === '/api' || url.startsWith('/api/');
}

/**
 * Authentication as a property of the routes (issue 9 §1): the check runs for the route the
 * router matched, never for a spelling of the URL. Every route registered under /api needs a
 * valid token unless its options say `config: { access: 'public' }`, and must declare its access,
 * or the app refuses to start. A request no route matches that names the API in any spelling
 * (`/%61pi/...`, `/API/...`, `//api`, dot segments, absolute form) also needs a token, so
 * nothing tells a stranger which routes exist. The same code path validates tokens of the local
 * identity provider and of Entra ID; only the URLs differ.
 */
export const authPlugin = fp<AuthPluginOptions>(
  registering((app: FastifyInstance, options) => {
    const keys: JWTVerifyGetKey = createRemoteJWKSet(new URL(options.jwksUrl), {
      cooldownDuration: 30_000,
    });

    app.decorateRequest('user', null as unknown as SignedInUser);
    app.decorateRequest('accessToken', '');

    const apiRoutes: RouteOptions[] = [];
    app.addHook('onRoute', (route) => {
      if (isApiRoute(route.url)) apiRoutes.push(route);
    });
    // Checked once every plugin has registered (and possibly marked) its routes.
    app.addHook('onReady', (done) => {
      const undeclared = apiRoutes
        .filter((route) => accessOf(route.config) === undefined)
        .map((route) => `${String(route.method)} ${route.url}`);
      if (undeclared.length > 0) {
        throw new Error(
          `Every /api route must declare config: { access: 'public' } or config: { role }; missing on: ${[...new Set(undeclared)].join(', ')}`,
        );
      }
      done();
    });

    app.addHook('onRequest', async (request: FastifyRequest, reply) => {
      if (!needsToken(request)) return;
      // What a signed-in account is told is for it alone: no browser or proxy keeps a copy
      // (issue 9 §5). Set first, so error answers carry it too; a route may still say more.
      void reply.header('cache-control', 'no-store');
      await authenticate(request);
      // The server decides (issue 18): the route's role, or a 403 naming it.
      const required = request.is404 ? undefined : request.routeOptions.config.role;
      if (required && !hasRole(request.user.roles, required)) {
        throw new NotAllowedError(roleRequiredMessage(required));
      }
    });

    async function authenticate(request: FastifyRequest): Promise<void> {
      const header = request.headers.authorization ?? '';
      const match = /^Bearer\s+(\S+)$/i.exec(header);
      if (!match?.[1]) throw new AuthenticationError('No authenticated account found.');
      try {
        const { payload } = await jwtVerify(match[1], keys, {
          issuer: options.issuer,
          audience: options.audience,
          algorithms: ['RS256'],
          // A token without an expiry would be valid forever; `nbf` in the future is refused by jose.
          requiredClaims: ['exp'],
        });
        const upn = stringClaim(payload.upn) ?? stringClaim(payload.preferred_username) ?? '';
        request.user = {
          oid: stringClaim(payload.oid) ?? payload.sub ?? '',
          upn,
          displayName: stringClaim(payload.name),
          roles: aegisRolesOf(payload.roles),
          ...(stringClaim(payload.tid) ? { tenantId: stringClaim(payload.tid) } : {}),
        };
        request.accessToken = match[1];
      } catch (error) {
        request.log.info({ reason: (error as Error).message }, 'rejected bearer token');
        throw new AuthenticationError('The access token is invalid or has expired.');
      }
    }
  }),
  { name: 'auth' },
);

/** What a route's config declares, or undefined when it declares nothing valid. */
export function accessOf(config: unknown): RouteAccess | undefined {
  const declared = (config ?? {}) as { access?: unknown; role?: unknown };
  if (declared.access === 'public' || declared.access === 'signed-in') {
    return { access: declared.access };
  }
  if (isAegisRole(declared.role)) return { role: declared.role };
  return undefined;
}

function needsToken(request: FastifyRequest): boolean {
  const { url, config } = request.routeOptions;
  if (!request.is404 && url && isApiRoute(url)) return config.access !== 'public';
  // No API route matched (unknown path, or the SPA's static files): a request that names the API
  // in any spelling still needs a token, so it never learns more than "sign in".
  return isApiRequest(request.url);
}

function stringClaim(value: unknown): string | undefined {
  return typeof value === 'string' && value.length > 0 ? value : undefined;
}
