import type { FastifyInstance, FastifyReply } from 'fastify';

import { findTenant } from '../tenant-directory';

import { MULTI_TENANT, oauthError, type AuthorityContext } from './context';

/** `/{tenant}/[v2.0/].well-known/openid-configuration`: where a tenant's endpoints are. */
export function registerDiscoveryRoutes(app: FastifyInstance, context: AuthorityContext): void {
  const { options, issuerOf } = context;
  function openIdConfiguration(authority: string, reply: FastifyReply) {
    const multi = MULTI_TENANT.has(authority.toLowerCase());
    const tenant = multi ? undefined : findTenant(options.directory, authority);
    if (!multi && !tenant)
      return oauthError(
        reply,
        'invalid_tenant',
        `AADSTS90002: Tenant '${authority}' not found. Check to make sure you have the correct tenant ID and are signing into the correct cloud.`,
      );
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
}
