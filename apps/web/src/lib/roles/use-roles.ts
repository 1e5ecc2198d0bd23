import type { Me } from '@aegis/contracts';
import { hasRole, highestRole, type AegisRole } from '@aegis/domain';
import { queryOptions, useQuery } from '@tanstack/react-query';

import { api } from '../api-client';
import { useBrowserSession } from '../session';

/** Who the server says is signed in, with the Aegis roles of their token (issue 18). */
export function meQuery(upn: string) {
  return queryOptions({
    // keyed by account: signing in as someone else asks again
    queryKey: ['me', upn],
    queryFn: ({ signal }) => api<Me>('/api/me', { signal }),
    staleTime: 5 * 60_000,
  });
}

/** The signed-in account as the server sees it; idle while signed out. */
export function useMe() {
  const session = useBrowserSession();
  return useQuery({
    ...meQuery(session.loggedInUser?.upn ?? ''),
    enabled: session.isLoggedIn,
  });
}

/** The signed-in account's Aegis roles; empty while they load or for an account without any. */
export function useRoles(): readonly AegisRole[] {
  return useMe().data?.roles ?? [];
}

/** The most powerful Aegis role of the signed-in account, or undefined. */
export function useRole(): AegisRole | undefined {
  return highestRole(useRoles());
}

/**
 * Whether the signed-in account may do what needs `role` (roles include the ones below them).
 * The server decides anyway; this only lets the browser show what is not allowed.
 */
export function useCan(role: AegisRole): boolean {
  return hasRole(useRoles(), role);
}
