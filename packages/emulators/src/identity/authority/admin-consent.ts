import type { FastifyInstance } from 'fastify';

import { consentPage } from '../pages';

import type { AuthorityContext } from './context';

/** `/{tenant}/adminconsent` (v1-style endpoint, spec 2 §7): a Global Administrator's consent. */
export function registerAdminConsentRoutes(app: FastifyInstance, context: AuthorityContext): void {
  const { options } = context;
  app.get<{
    Params: { tenant: string };
    Querystring: { client_id?: string; redirect_uri?: string; state?: string };
  }>('/:tenant/adminconsent', async (request, reply) => {
    const { tenant } = request.params;
    const { client_id: clientId = '', redirect_uri: redirectUri = '', state = '' } = request.query;
    const popup = context.popupRequest(reply, { authority: tenant, clientId, redirectUri });
    if (!popup) return reply;
    return reply.type('text/html').send(
      consentPage({
        action: `${options.baseUrl()}/${tenant}/adminconsent`,
        appName: popup.application.displayName,
        permissions: popup.application.permissions,
        accounts: context.accountsOf(popup.tenants),
        fields: { client_id: clientId, redirect_uri: redirectUri, state },
      }),
    );
  });

  app.post<{ Params: { tenant: string }; Body: Record<string, string | undefined> }>(
    '/:tenant/adminconsent',
    async (request, reply) => {
      const body = request.body ?? {};
      const clientId = body.client_id ?? '';
      const target = context.formRedirect(reply, {
        clientId,
        redirectUri: body.redirect_uri ?? '',
      });
      if (!target) return reply;
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
      const match = context.signedInAccount(reply, request.params.tenant, body.upn ?? '');
      if (!match) return reply;
      const outcome = await options.directory.grantAdminConsent(match.tenant.tenantId, clientId);
      if (!outcome.granted)
        return finish({ error: outcome.error, error_description: outcome.errorDescription });
      return finish({ admin_consent: 'True', tenant: match.tenant.tenantId });
    },
  );
}
