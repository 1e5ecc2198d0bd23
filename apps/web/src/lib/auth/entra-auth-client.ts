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

/** Azure DevOps' resource id: the API token is for DevOps, which the Aegis server forwards (ADR 003). */
const DEVOPS_SCOPE = '499b84ac-1321-427f-aa17-267ca6975798/user_impersonation';
/** Spec 1 §6. */
export const SIGN_IN_SCOPES = [
  'openid',
  'profile',
  'email',
  'offline_access',
  'User.Read',
  DEVOPS_SCOPE,
];

/** Entra ID through an MSAL popup; the sign-in cache in session storage. */
export class EntraAuthClient implements AuthClient {
  readonly mode = 'entra' as const;
  private readonly msal: PublicClientApplication;
  private initialised: Promise<void> | undefined;

  constructor(clientId: string, authority: string) {
    this.msal = new PublicClientApplication({
      auth: { clientId, authority, redirectUri: window.location.origin },
      cache: { cacheLocation: 'sessionStorage' },
    });
  }

  private async ready(): Promise<void> {
    this.initialised ??= this.msal.initialize();
    await this.initialised;
  }

  async listAccounts(): Promise<SampleAccount[]> {
    return [];
  }

  async signIn(): Promise<SignedInAccount> {
    await this.ready();
    const result = await this.msal.loginPopup({ scopes: SIGN_IN_SCOPES, prompt: 'select_account' });
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
    return this.token([DEVOPS_SCOPE]);
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
