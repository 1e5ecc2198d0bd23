import {
  InteractionRequiredAuthError,
  PublicClientApplication,
  type AccountInfo,
} from '@azure/msal-browser';

import {
  NoAccountError,
  type AuthClient,
  type SampleAccount,
  type SignedInAccount,
} from './auth-client';

/**
 * Spec 1 §6, with the Aegis API's scope (ADR 031): the browser's token is for the Aegis API and
 * carries the Aegis roles; the server obtains Azure DevOps tokens on the technician's behalf.
 */
function signInScopes(apiScope: string): string[] {
  return ['openid', 'profile', 'email', 'offline_access', 'User.Read', apiScope];
}

/**
 * Entra ID through an MSAL popup. The sign-in cache is MSAL's local storage, which every tab of the
 * browser shares (a link opened in a new tab stays signed in) and which MSAL encrypts with a key
 * kept in a session cookie, so it is unreadable once the browser closes (ADR 055).
 */
export class EntraAuthClient implements AuthClient {
  readonly mode = 'entra' as const;
  private readonly msal: PublicClientApplication;
  private initialised: Promise<void> | undefined;

  constructor(
    clientId: string,
    authority: string,
    private readonly apiScope: string,
  ) {
    this.msal = new PublicClientApplication({
      auth: { clientId, authority, redirectUri: window.location.origin },
      cache: { cacheLocation: 'localStorage' },
    });
  }

  private async ready(): Promise<void> {
    this.initialised ??= this.msal.initialize();
    await this.initialised;
  }

  listAccounts(): Promise<SampleAccount[]> {
    return Promise.resolve([]);
  }

  async signIn(): Promise<SignedInAccount> {
    await this.ready();
    const result = await this.msal.loginPopup({
      scopes: signInScopes(this.apiScope),
      prompt: 'select_account',
    });
    this.msal.setActiveAccount(result.account);
    return { upn: result.account.username, displayName: result.account.name ?? null };
  }

  private async account(): Promise<AccountInfo> {
    await this.ready();
    const account = this.msal.getActiveAccount() ?? this.msal.getAllAccounts()[0];
    if (!account) throw new NoAccountError();
    return account;
  }

  private async token(scopes: string[]): Promise<string> {
    const account = await this.account();
    try {
      return (await this.msal.acquireTokenSilent({ scopes, account })).accessToken;
    } catch (error) {
      if (error instanceof InteractionRequiredAuthError) {
        return (await this.msal.acquireTokenPopup({ scopes, account })).accessToken;
      }
      throw error;
    }
  }

  getAccessToken(): Promise<string> {
    return this.token([this.apiScope]);
  }

  async getPhoto(): Promise<Blob | undefined> {
    const response = await fetch('https://graph.microsoft.com/v1.0/me/photo/$value', {
      headers: { authorization: `Bearer ${await this.token(['User.Read'])}` },
    });
    return response.ok ? response.blob() : undefined;
  }

  async signOut(): Promise<void> {
    await this.ready();
    const account = this.msal.getActiveAccount();
    if (account) await this.msal.clearCache({ account });
  }
}
