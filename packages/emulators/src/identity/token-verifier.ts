import { createRemoteJWKSet, jwtVerify } from 'jose';

/**
 * A token check for the emulators that trusts the identity provider's JWKS,
 * as the real services trust Entra ID.
 */
export function jwksTokenVerifier(provider: {
  jwksUrl: string;
  issuer: string;
  audience: string;
}): (token: string) => Promise<boolean> {
  const keys = createRemoteJWKSet(new URL(provider.jwksUrl));
  return async (token) => {
    try {
      await jwtVerify(token, keys, { issuer: provider.issuer, audience: provider.audience });
      return true;
    } catch {
      return false;
    }
  };
}
