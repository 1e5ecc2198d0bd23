import { createHash, randomBytes } from 'node:crypto';

import { textOf } from '@aegis/domain';
import type { FastifyInstance } from 'fastify';
import { jwtVerify, type JWTPayload } from 'jose';

import { findTenant } from '../tenant-directory';

import { oauthError, type AuthorityContext, type Grant, type TokenClaims } from './context';
import { audienceFor } from './scopes';

const GRANT_OBO = 'urn:ietf:params:oauth:grant-type:jwt-bearer';

function pkceMatches(verifier: string, challenge: string): boolean {
  return createHash('sha256').update(verifier).digest('base64url') === challenge;
}

/**
 * `/{tenant}/oauth2/v2.0/token`: authorization code, refresh token, client credentials and
 * on-behalf-of grants.
 */
export function registerTokenRoutes(app: FastifyInstance, context: AuthorityContext): void {
  const { options, codes, refreshTokens, issuerOf, application } = context;
  const { directory } = options;
  app.post<{ Params: { tenant: string }; Body: Record<string, string | undefined> }>(
    '/:tenant/oauth2/v2.0/token',
    async (request, reply) => {
      const body = request.body ?? {};
      const client = application(body.client_id ?? '');
      if (!client)
        return oauthError(
          reply,
          'unauthorized_client',
          `AADSTS700016: Application with identifier '${body.client_id ?? ''}' was not found in the directory.`,
        );
      const scoped = audienceFor(body.scope ?? '');
      if ('error' in scoped) return oauthError(reply, 'invalid_scope', scoped.error);

      /** Entra's token answer: an access token for the scope's resource, and what else applies. */
      const answer = async (
        claims: Omit<TokenClaims, 'audience' | 'scp'>,
        extra: { idToken?: boolean; refreshGrant?: Grant } = {},
      ) => {
        const delegated = !claims.appOnly;
        const access: TokenClaims = {
          ...claims,
          audience: scoped.audience,
          scp: delegated ? scoped.scp : '',
        };
        let refreshToken: string | undefined;
        if (extra.refreshGrant) {
          refreshToken = randomBytes(32).toString('base64url');
          refreshTokens.set(refreshToken, extra.refreshGrant);
        }
        return {
          token_type: 'Bearer',
          // an application's own token names no delegated scope
          ...(delegated ? { scope: body.scope ?? '' } : {}),
          expires_in: options.lifetimeInSeconds,
          access_token: await options.sign(access),
          ...(extra.idToken
            ? { id_token: await options.sign({ ...access, audience: claims.appId, scp: '' }) }
            : {}),
          ...(refreshToken ? { refresh_token: refreshToken } : {}),
        };
      };
      /** A user's sign-in (code or refresh): an access token, an id token and a refresh token. */
      const issue = (grant: Grant) =>
        answer(
          {
            tenantId: grant.tenantId,
            account: grant.account,
            issuer: issuerOf(grant.tenantId),
            appId: grant.clientId,
          },
          { idToken: true, refreshGrant: grant },
        );
      /** Confidential grants (client credentials, on-behalf-of) need the app's secret. */
      const secretRefused = () =>
        !client.clientSecret || body.client_secret !== client.clientSecret
          ? oauthError(
              reply,
              'invalid_client',
              'AADSTS7000215: Invalid client secret provided.',
              401,
            )
          : undefined;

      if (body.grant_type === 'authorization_code') {
        const pending = codes.get(body.code ?? '');
        codes.delete(body.code ?? '');
        if (!pending || pending.expiresAt < Date.now() || pending.clientId !== client.clientId)
          return oauthError(
            reply,
            'invalid_grant',
            'AADSTS70008: The provided authorization code or refresh token has expired or was already used.',
          );
        if (body.redirect_uri !== pending.redirectUri)
          return oauthError(
            reply,
            'invalid_grant',
            'AADSTS50148: The redirect_uri does not match the one of the authorization request.',
          );
        if (pending.codeChallenge && !pkceMatches(body.code_verifier ?? '', pending.codeChallenge))
          return oauthError(
            reply,
            'invalid_grant',
            'AADSTS501481: The Code_Verifier does not match the code_challenge supplied in the authorization request.',
          );
        return issue(pending);
      }

      if (body.grant_type === 'refresh_token') {
        const grant = refreshTokens.get(body.refresh_token ?? '');
        if (!grant || grant.clientId !== client.clientId)
          return oauthError(
            reply,
            'invalid_grant',
            'AADSTS70000: The provided grant is invalid or malformed.',
          );
        return issue(grant);
      }

      // Client credentials (an agent's app-only token for a client tenant, `{resource}/.default`).
      if (body.grant_type === 'client_credentials') {
        const refused = secretRefused();
        if (refused) return refused;
        if (options.homeTenantId && request.params.tenant === options.homeTenantId) {
          return answer({
            tenantId: options.homeTenantId,
            account: { oid: client.clientId, upn: '', displayName: client.displayName },
            issuer: options.baseUrl(),
            appId: client.clientId,
            appOnly: true,
          });
        }
        const tenant = findTenant(directory, request.params.tenant);
        if (!tenant)
          return oauthError(
            reply,
            'invalid_request',
            `AADSTS90002: Tenant '${request.params.tenant}' not found.`,
          );
        return answer({
          tenantId: tenant.tenantId,
          account: { oid: client.clientId, upn: '', displayName: client.displayName },
          issuer: issuerOf(tenant.tenantId),
          appId: client.clientId,
          appOnly: true,
        });
      }

      if (body.grant_type === GRANT_OBO && body.requested_token_use === 'on_behalf_of') {
        const refused = secretRefused();
        if (refused) return refused;
        let payload: JWTPayload;
        try {
          ({ payload } = await jwtVerify(body.assertion ?? '', options.publicKey));
        } catch (error) {
          return oauthError(
            reply,
            'invalid_grant',
            `AADSTS50013: Assertion failed signature validation. ${(error as Error).message}`,
          );
        }
        const audiences = [client.apiAudience, client.clientId].filter(Boolean);
        if (!audiences.includes(String(payload.aud)))
          return oauthError(
            reply,
            'invalid_grant',
            'AADSTS50013: Assertion audience does not match the Client app presenting the assertion.',
          );
        return answer({
          tenantId: textOf(payload.tid ?? ''),
          account: {
            oid: textOf(payload.oid ?? payload.sub ?? ''),
            upn: textOf(payload.upn ?? payload.preferred_username ?? ''),
            displayName: textOf(payload.name ?? ''),
          },
          issuer: String(payload.iss ?? ''),
          appId: client.clientId,
        });
      }
      return oauthError(
        reply,
        'unsupported_grant_type',
        `AADSTS70003: The app requested an unsupported grant type '${body.grant_type ?? ''}'.`,
      );
    },
  );
}
