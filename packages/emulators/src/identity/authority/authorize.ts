import { randomBytes } from 'node:crypto';

import type { FastifyInstance } from 'fastify';

import { signInPage } from '../pages';

import type { AuthorityContext } from './context';

const CODE_LIFETIME_MS = 5 * 60_000;

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

/** `/{tenant}/oauth2/v2.0/authorize`: the Global Administrator's sign-in popup, with PKCE. */
export function registerAuthorizeRoutes(app: FastifyInstance, context: AuthorityContext): void {
  const { options, codes } = context;
  app.get<{ Params: { tenant: string }; Querystring: AuthorizeQuery }>(
    '/:tenant/oauth2/v2.0/authorize',
    async (request, reply) => {
      const { tenant } = request.params;
      const query = request.query;
      const popup = context.popupRequest(reply, {
        authority: tenant,
        clientId: query.client_id ?? '',
        redirectUri: query.redirect_uri ?? '',
      });
      if (!popup) return reply;
      return reply.type('text/html').send(
        signInPage({
          action: `${options.baseUrl()}/${tenant}/oauth2/v2.0/authorize`,
          appName: popup.application.displayName,
          accounts: context.accountsOf(popup.tenants),
          fields: {
            client_id: popup.application.clientId,
            redirect_uri: query.redirect_uri ?? '',
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
      const target = context.formRedirect(reply, { clientId: body.client_id ?? '', redirectUri });
      if (!target) return reply;
      if (body.state) target.searchParams.set('state', body.state);
      if (body.decision !== 'sign-in') {
        target.searchParams.set('error', 'access_denied');
        target.searchParams.set(
          'error_description',
          'AADSTS50058: The user cancelled the sign-in.',
        );
        return reply.redirect(target.toString(), 302);
      }
      const match = context.signedInAccount(reply, request.params.tenant, body.upn ?? '');
      if (!match) return reply;
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
}
