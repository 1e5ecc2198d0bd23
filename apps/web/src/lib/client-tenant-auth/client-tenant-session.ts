/**
 * The client tenant's Global Administrator session (spec 2 §6, ADR 020): kept in memory only,
 * never in web storage, so it ends with the page. One tenant at a time.
 */
export interface ClientTenantSession {
  readonly tenantId: string;
  readonly upn: string;
  readonly displayName: string | null;
  /** A token for the Aegis API issued by the client tenant, traded on-behalf-of by the server. */
  readonly accessToken: string;
  readonly expiresAt: number;
}

let current: ClientTenantSession | undefined;
const listeners = new Set<() => void>();

/** The session while it is valid for at least another 30 s. */
export function currentClientTenantSession(): ClientTenantSession | undefined {
  if (current && current.expiresAt < Date.now() + 30_000) current = undefined;
  return current;
}

export function setClientTenantSession(session: ClientTenantSession | undefined): void {
  current = session;
  for (const listener of listeners) listener();
}

export function clearClientTenantSession(): void {
  setClientTenantSession(undefined);
}

/** For useSyncExternalStore. */
export function subscribeClientTenantSession(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** A failed Global Administrator sign-in, with Entra's error code and details (spec 2 §8). */
export class GlobalAdminSignInError extends Error {
  override readonly name = 'GlobalAdminSignInError';
  constructor(
    readonly code: string,
    readonly details: string,
  ) {
    super(`${code}: ${details}`);
  }
}
