import {
  createContext,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useState,
  type ReactNode,
} from 'react';

import { clearSession, readSession, writeSession } from '../session';

import type { AuthClient, SignedInAccount } from './auth-client';
import { loadAuthConfig } from './auth-config';

interface AuthContextValue {
  /** The sign-in client once loaded (it loads on demand, see {@link getAuthClient}). */
  readonly client: AuthClient | undefined;
  readonly loading: boolean;
  readonly error: Error | null;
  /** Loads the sign-in client (configuration, and MSAL where Entra ID is configured). */
  load: () => Promise<AuthClient>;
  /** Signs in and fills the browser session (photo included, default when none). */
  signIn: (upn?: string) => Promise<SignedInAccount>;
  signOut: () => Promise<void>;
}

const AuthContext = createContext<AuthContextValue | undefined>(undefined);

let pending: Promise<AuthClient> | undefined;

async function createAuthClient(): Promise<AuthClient> {
  const config = await loadAuthConfig();
  // The clients load on demand, not with the landing page.
  if (config.mode === 'local') {
    const { LocalAuthClient } = await import('./local-auth-client');
    return new LocalAuthClient(config.identityProviderUrl);
  }
  // MSAL is loaded only where Entra ID is configured.
  const { EntraAuthClient } = await import('./entra-auth-client');
  return new EntraAuthClient(config.clientId, config.authority, config.apiScope);
}

/**
 * The sign-in client, loaded on first need: the API client asks for it for tokens (a request
 * made right after a reload waits for it), Sign In asks when pressed (or hovered). The landing
 * page therefore loads none of it before anyone signs in. One retry; a failure is not kept.
 */
export function getAuthClient(): Promise<AuthClient> {
  pending ??= createAuthClient()
    .catch(() => createAuthClient())
    .catch((error: unknown) => {
      pending = undefined;
      throw error;
    });
  return pending;
}

async function photoDataUrl(client: AuthClient): Promise<string | null> {
  try {
    const blob = await client.getPhoto();
    if (!blob) return null;
    return await new Promise<string>((resolve, reject) => {
      const reader = new FileReader();
      // readAsDataURL's result is the data: URL
      reader.onload = () => resolve(reader.result as string);
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
  const [state, setState] = useState<{
    client?: AuthClient;
    loading: boolean;
    error: Error | null;
  }>(() => {
    if (injected) pending = Promise.resolve(injected);
    return { client: injected, loading: false, error: null };
  });

  const load = useCallback(async () => {
    setState((s) => (s.client ? s : { ...s, loading: true, error: null }));
    try {
      const client = await getAuthClient();
      setState({ client, loading: false, error: null });
      return client;
    } catch (error) {
      const failure = error instanceof Error ? error : new Error(String(error));
      setState({ loading: false, error: failure });
      throw failure;
    }
  }, []);

  // A signed-in user (after a reload) needs the client at once; a visitor only on Sign In.
  useEffect(() => {
    if (!state.client && readSession().isLoggedIn) load().catch(() => undefined);
  }, [state.client, load]);

  const { client } = state;
  const signIn = useCallback(
    async (upn?: string) => {
      const active = client ?? (await load());
      const account = await active.signIn(upn);
      const userPhoto = await photoDataUrl(active);
      writeSession({ isLoggedIn: true, loggedInUser: account, userPhoto });
      return account;
    },
    [client, load],
  );

  const signOut = useCallback(async () => {
    const active = client ?? (await load().catch(() => undefined));
    await active?.signOut();
    clearSession();
  }, [client, load]);

  const value = useMemo<AuthContextValue>(
    () => ({ client, loading: state.loading, error: state.error, load, signIn, signOut }),
    [client, state.loading, state.error, load, signIn, signOut],
  );
  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}

export function useAuth(): AuthContextValue {
  const value = useContext(AuthContext);
  if (!value) throw new Error('useAuth must be used inside AuthProvider');
  return value;
}
