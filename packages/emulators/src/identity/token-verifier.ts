import { textOf } from '@aegis/domain';
import { createRemoteJWKSet, jwtVerify } from 'jose';

/**
 * A token check for the emulators that trusts the identity provider's JWKS,
 * as the real services trust Entra ID.
 */
export function jwksTokenVerifier(
  provider: { jwksUrl: string; issuer: string; audience: string },
  /** the audiences a token may be for; the provider's own (the Aegis API) by default */
  audiences: readonly string[] = [provider.audience],
): (token: string) => Promise<boolean> {
  const keys = createRemoteJWKSet(new URL(provider.jwksUrl));
  return async (token) => {
    try {
      await jwtVerify(token, keys, { issuer: provider.issuer, audience: [...audiences] });
      return true;
    } catch {
      return false;
    }
  };
}

export interface ClientTenantTokenClaims {
  readonly tenantId: string;
  readonly oid: string;
  readonly upn: string;
  readonly scp: string;
}

/**
 * A token check for the tenant emulator's Graph and ARM endpoints: a token of one of the
 * identity provider's tenant authorities (`{url}/{tenantId}/v2.0`) for `audience`
 * (`https://graph.microsoft.com` or `https://management.azure.com`). Undefined when invalid.
 */
export function clientTenantTokenVerifier(
  provider: { jwksUrl: string; tenantIssuer(tenantId: string): string },
  audience: string,
): (token: string) => Promise<ClientTenantTokenClaims | undefined> {
  const keys = createRemoteJWKSet(new URL(provider.jwksUrl));
  return async (token) => {
    try {
      const { payload } = await jwtVerify(token, keys, { audience });
      const tenantId = typeof payload.tid === 'string' ? payload.tid : '';
      if (!tenantId || payload.iss !== provider.tenantIssuer(tenantId)) return undefined;
      return {
        tenantId,
        oid: textOf(payload.oid ?? ''),
        upn: textOf(payload.upn ?? ''),
        scp: textOf(payload.scp ?? ''),
      };
    } catch {
      return undefined;
    }
  };
}
