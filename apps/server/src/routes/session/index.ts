import { authConfigSchema, meSchema } from '@aegis/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

import type { AegisConfig } from '../../config';

export interface SessionRoutesOptions {
  readonly config: AegisConfig;
}

/** Who is signed in, and how the browser signs in (public: needed before there is a token). */
export const sessionRoutes: FastifyPluginAsyncZod<SessionRoutesOptions> = async (
  app,
  { config },
) => {
  app.get(
    '/auth-config.json',
    { schema: { hide: true, response: { 200: authConfigSchema } } },
    async () =>
      config.AEGIS_AUTH_MODE === 'local'
        ? { mode: 'local' as const, identityProviderUrl: config.AEGIS_LOCAL_IDP_URL ?? '' }
        : {
            mode: 'entra' as const,
            clientId: config.AEGIS_ENTRA_CLIENT_ID ?? '',
            authority: `https://login.microsoftonline.com/${config.AEGIS_ENTRA_TENANT_ID ?? 'organizations'}`,
          },
  );

  app.get(
    '/api/me',
    { schema: { tags: ['session'], response: { 200: meSchema } } },
    async (request) => ({
      upn: request.user.upn,
      displayName: request.user.displayName ?? null,
    }),
  );
};
