import { render } from '@testing-library/react';
import type { ReactElement } from 'react';
import { createMemoryRouter, RouterProvider } from 'react-router';

import { AppProvider } from '../app/provider';
import { routes } from '../app/router';
import type { AuthClient, SampleAccount, SignedInAccount } from '../lib/auth/auth-client';
import { createQueryClient } from '../lib/query-client';
import { writeSession } from '../lib/session';

export const TEST_USER: SignedInAccount = {
  upn: 'alex.morgan@aegis-msp.example',
  displayName: 'Alex Morgan',
};

/** An AuthClient for component tests: signed in, with a fixed token the MSW handlers can check. */
export class TestAuthClient implements AuthClient {
  readonly mode = 'local' as const;
  async listAccounts(): Promise<SampleAccount[]> {
    return [TEST_USER];
  }
  async signIn(): Promise<SignedInAccount> {
    return TEST_USER;
  }
  async getAccessToken(): Promise<string> {
    return 'test-token';
  }
  async getPhoto(): Promise<Blob | undefined> {
    return undefined;
  }
  async signOut(): Promise<void> {}
}

/**
 * Renders the real app (providers, router, lazy routes) at `url`, signed in unless `user` is null.
 * Lazy routes load asynchronously: query with `findBy…`.
 */
export function renderApp(
  url: string,
  { user = TEST_USER }: { user?: SignedInAccount | null } = {},
) {
  if (user) writeSession({ isLoggedIn: true, loggedInUser: user, userPhoto: null });
  const router = createMemoryRouter(routes, { initialEntries: [url] });
  const queryClient = createQueryClient();
  queryClient.setDefaultOptions({ queries: { retry: false, staleTime: Infinity } });
  const view = render(
    <AppProvider queryClient={queryClient} authClient={new TestAuthClient()}>
      <RouterProvider router={router} />
    </AppProvider>,
  );
  return { ...view, router };
}

/** Renders one component inside the real providers (no router), signed in as {@link TEST_USER}. */
export function renderWithProviders(ui: ReactElement) {
  writeSession({ isLoggedIn: true, loggedInUser: TEST_USER, userPhoto: null });
  const queryClient = createQueryClient();
  queryClient.setDefaultOptions({ queries: { retry: false } });
  return render(
    <AppProvider queryClient={queryClient} authClient={new TestAuthClient()}>
      {ui}
    </AppProvider>,
  );
}
