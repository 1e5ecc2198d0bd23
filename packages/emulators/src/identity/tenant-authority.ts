import type { FastifyInstance } from 'fastify';

import { registerAdminConsentRoutes } from './authority/admin-consent';
import { registerAuthorizeRoutes } from './authority/authorize';
import { authorityContext, type TenantAuthorityOptions } from './authority/context';
import { registerDiscoveryRoutes } from './authority/discovery';
import { registerTokenRoutes } from './authority/token';

export type { TenantAuthorityOptions, TokenClaims } from './authority/context';
export { audienceFor } from './authority/scopes';

/**
 * Per-tenant authorities of the simulated client tenants (`/{tenant}/…`, tenant = id, domain,
 * `common` or `organizations`): OpenID configuration, JWKS, the authorization-code popup with PKCE,
 * the token endpoint (authorization code, refresh token, on-behalf-of) and admin consent. One
 * module per resource; they share the issued codes and grants through one context.
 */
export function registerTenantAuthorities(
  app: FastifyInstance,
  options: TenantAuthorityOptions,
): void {
  const context = authorityContext(options);
  registerDiscoveryRoutes(app, context);
  registerAuthorizeRoutes(app, context);
  registerTokenRoutes(app, context);
  registerAdminConsentRoutes(app, context);
}
