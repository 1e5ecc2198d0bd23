import { decodeJwt } from 'jose';

import {
  NoAccountError,
  type AuthClient,
  type SampleAccount,
  type SignedInAccount,
} from './auth-client';

/** The sign-in cache lives in session storage (spec 1 §3). */
const TOKEN_KEY = 'aegis.signInCache';

/** Signs in against the embedded identity provider: a dialog of sample staff, real signed JWTs. */
export class LocalAuthClient implements AuthClient {
  readonly mode = 'local' as const;

  constructor(private readonly identityProviderUrl: string) {}

  async listAccounts(): Promise<SampleAccount[]> {
    const response = await fetch(`${this.identityProviderUrl}/accounts`);
    if (!response.ok) throw new Error(`The identity provider answered ${response.status}`);
    const body = (await response.json()) as { value: SampleAccount[] };
    return body.value;
  }

  async signIn(upn?: string): Promise<SignedInAccount> {
    const response = await fetch(`${this.identityProviderUrl}/oauth2/v2.0/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: upn ?? '' }),
    });
    const body = (await response.json()) as { access_token?: string; error_description?: string };
    if (!response.ok || !body.access_token)
      throw new Error(body.error_description ?? 'Login failed. Please try again.');
    sessionStorage.setItem(TOKEN_KEY, body.access_token);
    return accountFromToken(body.access_token);
  }

  async getAccessToken(): Promise<string> {
    const token = sessionStorage.getItem(TOKEN_KEY);
    if (!token) throw new NoAccountError();
    const { exp } = decodeJwt(token);
    if (exp !== undefined && exp * 1000 < Date.now() + 30_000) {
      sessionStorage.removeItem(TOKEN_KEY);
      throw new NoAccountError();
    }
    return token;
  }

  async getPhoto(): Promise<Blob | undefined> {
    const response = await fetch(`${this.identityProviderUrl}/v1.0/me/photo/$value`, {
      headers: { authorization: `Bearer ${await this.getAccessToken()}` },
    });
    return response.ok ? response.blob() : undefined;
  }

  async signOut(): Promise<void> {
    sessionStorage.removeItem(TOKEN_KEY);
  }
}

function accountFromToken(token: string): SignedInAccount {
  const claims = decodeJwt(token);
  const upn = typeof claims.upn === 'string' ? claims.upn : String(claims.preferred_username ?? '');
  const displayName = typeof claims.name === 'string' ? claims.name : null;
  return { upn, displayName };
}
