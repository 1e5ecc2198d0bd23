import { authConfigSchema } from '@aegis/contracts';
import { useQuery } from '@tanstack/react-query';
import { createContext, useCallback, useContext, useMemo, type ReactNode } from 'react';

import { clearSession, writeSession } from '../session';

import type { AuthClient, SignedInAccount } from './auth-client';
import { LocalAuthClient } from './local-auth-client';

interface AuthContextValue {
  readonly client: AuthClient | undefined;
  readonly loading: boolean;
  readonly error: Error | null;
  /** Signs in and fills the browser session (photo included, default when none). */
  signIn(upn?: string): Promise<SignedInAccount>;
  signOut(): Promise<void>;
}

const AuthContext = createContext<AuthContextValue | undefined>(undefined);

let resolveActiveClient: (client: AuthClient) => void = () => undefined;
let activeClient = new Promise<AuthClient>((resolve) => (resolveActiveClient = resolve));

/**
 * The API client asks for tokens outside React; requests made before the sign-in
 * configuration has loaded (right after a reload) wait for it instead of failing.
 */
export function getAuthClient(): Promise<AuthClient> {
  return activeClient;
}

async function createAuthClient(): Promise<AuthClient> {
  const response = await fetch('/auth-config.json');
  if (!response.ok)
    throw new Error(`Could not load the sign-in configuration (${response.status})`);
  const config = authConfigSchema.parse(await response.json());
  if (config.mode === 'local') return new LocalAuthClient(config.identityProviderUrl);
  // MSAL is loaded only where Entra ID is configured.
  const { EntraAuthClient } = await import('./entra-auth-client');
  return new EntraAuthClient(config.clientId, config.authority, config.apiScope);
}

async function photoDataUrl(client: AuthClient): Promise<string | null> {
  try {
    const blob = await client.getPhoto();
    if (!blob) return null;
    return await new Promise<string>((resolve, reject) => {
      const reader = new FileReader();
      reader.onload = () => resolve(String(reader.result));
      reader.onerror = () => reject(reader.error ?? new Error('unreadable photo'));
      reader.readAsDataURL(blob);
    });
  } catch {
    return null;
  }
}

export function AuthProvider({
  children,
  client: injected,
}: {
  children: ReactNode;
  client?: AuthClient;
}) {
  const query = useQuery({
    queryKey: ['auth-client'],
    queryFn: async () => {
      const client = injected ?? (await createAuthClient());
      resolveActiveClient(client);
      activeClient = Promise.resolve(client);
      return client;
    },
    staleTime: Infinity,
    retry: 1,
  });
  const client = query.data;

  const signIn = useCallback(
    async (upn?: string) => {
      if (!client) throw new Error('Sign-in is not ready yet.');
      const account = await client.signIn(upn);
      const userPhoto = await photoDataUrl(client);
      writeSession({ isLoggedIn: true, loggedInUser: account, userPhoto });
      return account;
    },
    [client],
  );

  const signOut = useCallback(async () => {
    await client?.signOut();
    clearSession();
  }, [client]);

  const value = useMemo<AuthContextValue>(
    () => ({ client, loading: query.isPending, error: query.error, signIn, signOut }),
    [client, query.isPending, query.error, signIn, signOut],
  );
  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}

export function useAuth(): AuthContextValue {
  const value = useContext(AuthContext);
  if (!value) throw new Error('useAuth must be used inside AuthProvider');
  return value;
}
