import { authConfigSchema, meSchema } from '@aegis/contracts';
import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';

import { appIdUriOf, type AegisConfig } from '../../config';
import { registering } from '../../lib/registering';

export interface SessionRoutesOptions {
  readonly config: AegisConfig;
}

/** Who is signed in, and how the browser signs in (public: needed before there is a token). */
export const sessionRoutes: FastifyPluginCallbackZod<SessionRoutesOptions> = registering(
  (app, { config }) => {
    app.get(
      '/auth-config.json',
      { config: { access: 'public' }, schema: { hide: true, response: { 200: authConfigSchema } } },
      () => {
        const appClientId = config.AEGIS_APP_CLIENT_ID ?? config.AEGIS_ENTRA_CLIENT_ID;
        const clientTenants = appClientId
          ? {
              loginUrl: config.AEGIS_LOGIN_URL,
              clientId: appClientId,
              apiScope: `${appIdUriOf(config, appClientId)}/user_impersonation`,
            }
          : undefined;
        return config.AEGIS_AUTH_MODE === 'local'
          ? {
              mode: 'local' as const,
              identityProviderUrl: config.AEGIS_LOCAL_IDP_URL ?? '',
              clientTenants,
            }
          : {
              mode: 'entra' as const,
              clientId: config.AEGIS_ENTRA_CLIENT_ID ?? '',
              apiScope: `${appIdUriOf(config, appClientId)}/user_impersonation`,
              authority: `https://login.microsoftonline.com/${config.AEGIS_ENTRA_TENANT_ID ?? 'organizations'}`,
              clientTenants,
            };
      },
    );

    app.get(
      '/api/me',
      {
        config: { access: 'signed-in' },
        schema: { tags: ['session'], response: { 200: meSchema } },
      },
      (request) => ({
        upn: request.user.upn,
        displayName: request.user.displayName ?? null,
        roles: [...request.user.roles],
      }),
    );
  },
);
