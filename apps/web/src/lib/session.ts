import { useSyncExternalStore } from 'react';

/** The browser session of spec 1 §3: kept in local storage so a reload stays signed in. */
export interface BrowserSession {
  readonly isLoggedIn: boolean;
  readonly loggedInUser: { readonly displayName: string | null; readonly upn: string } | null;
  /** A data URL, or null for the default photo. */
  readonly userPhoto: string | null;
}

const KEYS = {
  isLoggedIn: 'isLoggedIn',
  loggedInUser: 'loggedInUser',
  userPhoto: 'userPhoto',
} as const;
const SIGNED_OUT: BrowserSession = { isLoggedIn: false, loggedInUser: null, userPhoto: null };

const listeners = new Set<() => void>();
let cached: { raw: string; session: BrowserSession } | undefined;

function rawSnapshot(): string {
  return [KEYS.isLoggedIn, KEYS.loggedInUser, KEYS.userPhoto]
    .map((k) => localStorage.getItem(k) ?? '')
    .join('\u0000');
}

export function readSession(): BrowserSession {
  const raw = rawSnapshot();
  if (cached?.raw === raw) return cached.session;
  let session = SIGNED_OUT;
  if (localStorage.getItem(KEYS.isLoggedIn) === 'true') {
    try {
      const user = JSON.parse(
        localStorage.getItem(KEYS.loggedInUser) ?? 'null',
      ) as BrowserSession['loggedInUser'];
      session = {
        isLoggedIn: Boolean(user),
        loggedInUser: user,
        userPhoto: localStorage.getItem(KEYS.userPhoto),
      };
    } catch {
      session = SIGNED_OUT;
    }
  }
  cached = { raw, session };
  return session;
}

export function writeSession(session: BrowserSession): void {
  localStorage.setItem(KEYS.isLoggedIn, String(session.isLoggedIn));
  localStorage.setItem(KEYS.loggedInUser, JSON.stringify(session.loggedInUser));
  if (session.userPhoto) localStorage.setItem(KEYS.userPhoto, session.userPhoto);
  else localStorage.removeItem(KEYS.userPhoto);
  listeners.forEach((listener) => listener());
}

export function clearSession(): void {
  Object.values(KEYS).forEach((key) => localStorage.removeItem(key));
  listeners.forEach((listener) => listener());
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  const onStorage = (): void => listener();
  window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', onStorage);
  };
}

export function useBrowserSession(): BrowserSession {
  return useSyncExternalStore(subscribe, readSession, () => SIGNED_OUT);
}

export function displayNameOf(session: BrowserSession): string {
  return session.loggedInUser?.displayName || session.loggedInUser?.upn || '';
}
