import type { BranchProtection } from '@aegis/contracts';
import type { AegisRole } from '@aegis/domain';
import type { QueryClient } from '@tanstack/react-query';
import { render, renderHook } from '@testing-library/react';
import type { ReactElement, ReactNode } from 'react';
import { createMemoryRouter, RouterProvider } from 'react-router';

import { AppProvider } from '../app/provider';
import { routes } from '../app/router';
import { BRANCH_PROTECTION_QUERY_KEY } from '../components/branch-protection-warning';
import { ConfirmProvider } from '../components/confirm-dialog';
import { NotifierProvider } from '../components/notifier';
import type { AuthClient, SampleAccount, SignedInAccount } from '../lib/auth/auth-client';
import { createQueryClient } from '../lib/query-client';
import { meQuery } from '../lib/roles';
import { writeSession } from '../lib/session';

export const TEST_USER: SignedInAccount = {
  upn: 'alex.morgan@aegis-msp.example',
  displayName: 'Alex Morgan',
};

/** An AuthClient for component tests: signed in, with a fixed token the MSW handlers can check. */
class TestAuthClient implements AuthClient {
  readonly mode = 'local' as const;
  listAccounts(): Promise<SampleAccount[]> {
    return Promise.resolve([TEST_USER]);
  }
  signIn(): Promise<SignedInAccount> {
    return Promise.resolve(TEST_USER);
  }
  getAccessToken(): Promise<string> {
    return Promise.resolve('test-token');
  }
  getPhoto(): Promise<Blob | undefined> {
    return Promise.resolve(undefined);
  }
  signOut(): Promise<void> {
    return Promise.resolve();
  }
}

/**
 * What the server's /api/me answers for `user`: seeded so screens render at once with the roles a
 * test chooses (Administrator unless it says otherwise); `roles: null` leaves it to the handlers.
 */
function seedMe(
  queryClient: QueryClient,
  user: SignedInAccount,
  roles: readonly AegisRole[] | null,
): void {
  if (roles === null) return;
  queryClient.setQueryData(meQuery(user.upn).queryKey, {
    upn: user.upn,
    displayName: user.displayName ?? null,
    roles: [...roles],
  });
}

/** main protected as ADR 051 requires: the portal shows no branch policy warning. */
const PROTECTED_MAIN: BranchProtection = {
  protected: true,
  gaps: [],
  serviceIdentity: true,
  repository: 'M365Config',
  branch: 'main',
};

/**
 * Renders the real app (providers, router, lazy routes) at `url`, signed in unless `user` is null.
 * Lazy routes load asynchronously: query with `findBy…`.
 */
export function renderApp(
  url: string,
  {
    user = TEST_USER,
    roles = ['Administrator'],
    branchProtection = PROTECTED_MAIN,
  }: {
    user?: SignedInAccount | null;
    roles?: readonly AegisRole[] | null;
    /** main's branch protection as the server reports it; null leaves it to the handlers */
    branchProtection?: BranchProtection | null;
  } = {},
) {
  if (user) writeSession({ isLoggedIn: true, loggedInUser: user, userPhoto: null });
  const router = createMemoryRouter(routes, { initialEntries: [url] });
  const queryClient = createQueryClient();
  queryClient.setDefaultOptions({ queries: { retry: false, staleTime: Infinity } });
  if (user) seedMe(queryClient, user, roles);
  if (branchProtection) queryClient.setQueryData(BRANCH_PROTECTION_QUERY_KEY, branchProtection);
  const view = render(
    <AppProvider queryClient={queryClient} authClient={new TestAuthClient()}>
      <RouterProvider router={router} />
    </AppProvider>,
  );
  return { ...view, router };
}

/** The real providers (no router), signed in as {@link TEST_USER} with `roles`. */
function providersWrapper(roles: readonly AegisRole[] | null) {
  writeSession({ isLoggedIn: true, loggedInUser: TEST_USER, userPhoto: null });
  const queryClient = createQueryClient();
  queryClient.setDefaultOptions({ queries: { retry: false } });
  seedMe(queryClient, TEST_USER, roles);
  const authClient = new TestAuthClient();
  return function Providers({ children }: { children: ReactNode }) {
    return (
      <AppProvider queryClient={queryClient} authClient={authClient}>
        <NotifierProvider>
          <ConfirmProvider>{children}</ConfirmProvider>
        </NotifierProvider>
      </AppProvider>
    );
  };
}

/**
 * Renders one component inside the real providers (no router), signed in as {@link TEST_USER}
 * with `roles` (Administrator unless the test says otherwise).
 */
export function renderWithProviders(
  ui: ReactElement,
  { roles = ['Administrator'] }: { roles?: readonly AegisRole[] | null } = {},
) {
  return render(ui, { wrapper: providersWrapper(roles) });
}

/** Renders a hook inside the same providers as {@link renderWithProviders}: its requests reach MSW. */
export function renderHookWithProviders<Result>(
  hook: () => Result,
  { roles = ['Administrator'] }: { roles?: readonly AegisRole[] | null } = {},
) {
  return renderHook(hook, { wrapper: providersWrapper(roles) });
}
