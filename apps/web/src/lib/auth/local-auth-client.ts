import { textOf } from '@aegis/domain';
import { decodeJwt } from 'jose';

import {
  NoAccountError,
  type AuthClient,
  type SampleAccount,
  type SignedInAccount,
} from './auth-client';
import { SessionHandover } from './session-handover';

/** The sign-in cache lives in session storage (spec 1 §3). */
const TOKEN_KEY = 'aegis.signInCache';

/** Signs in against the embedded identity provider: a dialog of sample staff, real signed JWTs. */
export class LocalAuthClient implements AuthClient {
  readonly mode = 'local' as const;

  private readonly handover: SessionHandover;

  constructor(
    private readonly identityProviderUrl: string,
    private readonly storage: Storage = sessionStorage,
  ) {
    this.handover = new SessionHandover(
      'aegis.signIn',
      () => this.validToken(),
      (token) => (token ? this.storage.setItem(TOKEN_KEY, token) : this.forget()),
    );
  }

  /** The stored token while it has more than 30 s to live; an expired one is dropped. */
  private validToken(): string | undefined {
    const token = this.storage.getItem(TOKEN_KEY);
    if (!token) return undefined;
    const { exp } = decodeJwt(token);
    if (exp !== undefined && exp * 1000 < Date.now() + 30_000) {
      this.forget();
      return undefined;
    }
    return token;
  }

  private forget(): void {
    this.storage.removeItem(TOKEN_KEY);
  }

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
    this.storage.setItem(TOKEN_KEY, body.access_token);
    return accountFromToken(body.access_token);
  }

  async getAccessToken(): Promise<string> {
    // a tab opened from a link starts without a token: another open tab may hand over its own
    const token = this.validToken() ?? (await this.handover.request());
    if (!token) throw new NoAccountError();
    return token;
  }

  async getPhoto(): Promise<Blob | undefined> {
    const response = await fetch(`${this.identityProviderUrl}/v1.0/me/photo/$value`, {
      headers: { authorization: `Bearer ${await this.getAccessToken()}` },
    });
    return response.ok ? response.blob() : undefined;
  }

  signOut(): Promise<void> {
    this.forget();
    this.handover.signedOut();
    return Promise.resolve();
  }

  /** Leaves the tabs' channel (tests; a page's client lives as long as the page). */
  close(): void {
    this.handover.close();
  }
}

function accountFromToken(token: string): SignedInAccount {
  const claims = decodeJwt(token);
  const upn = typeof claims.upn === 'string' ? claims.upn : textOf(claims.preferred_username ?? '');
  const displayName = typeof claims.name === 'string' ? claims.name : null;
  return { upn, displayName };
}
