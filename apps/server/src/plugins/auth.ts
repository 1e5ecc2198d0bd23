import { AuthenticationError } from '@aegis/domain';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { createRemoteJWKSet, jwtVerify, type JWTVerifyGetKey } from 'jose';

export interface SignedInUser {
  readonly oid: string;
  readonly upn: string;
  readonly displayName?: string;
}

declare module 'fastify' {
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
  /** Path prefixes under /api that need no token. */
  readonly publicPaths: readonly string[];
}

/**
 * Validates every /api bearer token against a JWKS: the same code path for the local
 * identity provider and for Entra ID; only the URLs differ.
 */
export const authPlugin = fp<AuthPluginOptions>(
  async (app: FastifyInstance, options) => {
    const keys: JWTVerifyGetKey = createRemoteJWKSet(new URL(options.jwksUrl), {
      cooldownDuration: 30_000,
    });

    app.decorateRequest('user', null as unknown as SignedInUser);
    app.decorateRequest('accessToken', '');

    app.addHook('onRequest', async (request: FastifyRequest) => {
      const path = request.url.split('?')[0] ?? '';
      if (!path.startsWith('/api/') && path !== '/api') return;
      if (options.publicPaths.some((prefix) => path.startsWith(prefix))) return;

      const header = request.headers.authorization ?? '';
      const match = /^Bearer\s+(\S+)$/i.exec(header);
      if (!match?.[1]) throw new AuthenticationError('No authenticated account found.');
      try {
        const { payload } = await jwtVerify(match[1], keys, {
          issuer: options.issuer,
          audience: options.audience,
        });
        const upn = stringClaim(payload.upn) ?? stringClaim(payload.preferred_username) ?? '';
        request.user = {
          oid: stringClaim(payload.oid) ?? payload.sub ?? '',
          upn,
          displayName: stringClaim(payload.name),
        };
        request.accessToken = match[1];
      } catch (error) {
        request.log.info({ reason: (error as Error).message }, 'rejected bearer token');
        throw new AuthenticationError('The access token is invalid or has expired.');
      }
    });
  },
  { name: 'auth' },
);

function stringClaim(value: unknown): string | undefined {
  return typeof value === 'string' && value.length > 0 ? value : undefined;
}
