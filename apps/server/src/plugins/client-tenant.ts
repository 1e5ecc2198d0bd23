import { NotAllowedError, textOf } from '@aegis/domain';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { createRemoteJWKSet, decodeJwt, jwtVerify, type JWTVerifyGetKey } from 'jose';

import { registering } from '../lib/registering';
import type { OnBehalfOf } from '../services/on-behalf-of';

/** The header carrying the client tenant's Global Administrator token for the Aegis API (ADR 020). */
const CLIENT_TENANT_TOKEN_HEADER = 'x-client-tenant-authorization';

/** Spec 2 §6: the Global Administrator's delegated permissions in the client tenant. */
const CLIENT_GRAPH_SCOPES = [
  'https://graph.microsoft.com/User.Read',
  'https://graph.microsoft.com/Application.ReadWrite.All',
  'https://graph.microsoft.com/RoleManagement.ReadWrite.Directory',
  'https://graph.microsoft.com/Directory.Read.All',
] as const;
const CLIENT_ARM_SCOPES = ['https://management.azure.com/user_impersonation'] as const;

export interface ClientTenantSession {
  readonly tenantId: string;
  readonly upn: string;
  /** Graph and ARM tokens in the client tenant, on behalf of its Global Administrator. */
  graphToken(): Promise<string>;
  armToken(): Promise<string>;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The client tenant's Global Administrator, from {@link CLIENT_TENANT_TOKEN_HEADER}. */
    clientTenant(): Promise<ClientTenantSession>;
  }
}

export interface ClientTenantPluginOptions {
  /** Entra's sign-in host or the local identity provider. */
  readonly loginUrl: string;
  /** Audiences of the Aegis API: its App ID URI and client id. */
  readonly audiences: readonly string[];
  readonly onBehalfOf: OnBehalfOf | undefined;
}

const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const MISSING =
  "The client tenant's Global Administrator is not signed in, or the sign-in has expired. Sign in as Global Admin again.";

/**
 * Validates the Global Administrator's token (issued by the client tenant's authority for the
 * Aegis API) and trades it on-behalf-of for Graph and ARM tokens in that tenant.
 */
export const clientTenantPlugin = fp<ClientTenantPluginOptions>(
  registering((app: FastifyInstance, options) => {
    // Entra signs every tenant's tokens with the keys it publishes at /common: one key set from
    // the configured authority, never a URL (or a cache entry) per tenant id of an unverified token.
    const keys: JWTVerifyGetKey = createRemoteJWKSet(
      new URL(`${options.loginUrl}/common/discovery/v2.0/keys`),
      { cooldownDuration: 30_000 },
    );
    const sessions = new WeakMap<FastifyRequest, Promise<ClientTenantSession>>();

    async function session(request: FastifyRequest): Promise<ClientTenantSession> {
      const header = request.headers[CLIENT_TENANT_TOKEN_HEADER];
      const match = /^Bearer\s+(\S+)$/i.exec(typeof header === 'string' ? header : '');
      const token = match?.[1];
      if (!token) throw new NotAllowedError(MISSING);
      let tenantId: string;
      let upn: string;
      try {
        const unverified = decodeJwt(token);
        tenantId = typeof unverified.tid === 'string' ? unverified.tid : '';
        if (!GUID.test(tenantId)) throw new Error('no tenant id');
        const { payload } = await jwtVerify(token, keys, {
          issuer: `${options.loginUrl}/${tenantId}/v2.0`,
          audience: [...options.audiences],
          algorithms: ['RS256'],
          requiredClaims: ['exp', 'tid'],
        });
        if (payload.tid !== tenantId) throw new Error('tenant id changed');
        upn = textOf(payload.upn ?? payload.preferred_username ?? '');
      } catch (error) {
        request.log.info({ reason: (error as Error).message }, 'rejected client tenant token');
        throw new NotAllowedError(MISSING);
      }
      const obo = options.onBehalfOf;
      if (!obo)
        throw new NotAllowedError(
          'Onboarding is not configured: the Aegis app registration has no client secret.',
        );
      return {
        tenantId,
        upn,
        graphToken: () => obo.acquire(token, { scopes: CLIENT_GRAPH_SCOPES, tenantId }),
        armToken: () => obo.acquire(token, { scopes: CLIENT_ARM_SCOPES, tenantId }),
      };
    }

    app.decorateRequest('clientTenant', function (this: FastifyRequest) {
      let verified = sessions.get(this);
      if (!verified) {
        verified = session(this);
        sessions.set(this, verified);
      }
      return verified;
    });
  }),
  { name: 'client-tenant' },
);
