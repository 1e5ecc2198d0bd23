import type { AuthConfig } from '@aegis/contracts';

export interface SignedInAccount {
  readonly upn: string;
  readonly displayName: string | null;
}

export interface SampleAccount {
  readonly upn: string;
  readonly displayName: string | null;
  /** The account's Aegis app roles (issue 18), shown in the sign-in dialog. */
  readonly roles?: readonly string[];
}

/** One sign-in interface, two implementations: the local identity provider and Entra ID (MSAL). */
export interface AuthClient {
  readonly mode: AuthConfig['mode'];
  /** The accounts a sign-in dialog offers (local mode); Entra's popup picks its own. */
  listAccounts(): Promise<SampleAccount[]>;
  signIn(upn?: string): Promise<SignedInAccount>;
  /** A token for the Aegis API (which forwards it to Azure DevOps). */
  getAccessToken(): Promise<string>;
  /** The profile photo from Graph, or undefined when the account has none. */
  getPhoto(): Promise<Blob | undefined>;
  signOut(): Promise<void>;
}

export class NoAccountError extends Error {
  override readonly name = 'NoAccountError';
  constructor() {
    super('No accounts available for authentication.');
  }
}
