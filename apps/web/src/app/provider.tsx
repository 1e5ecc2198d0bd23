import { FluentProvider, webLightTheme } from '@fluentui/react-components';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import type { ReactNode } from 'react';

import { SignInDialogProvider } from '../components/sign-in-dialog';
import type { AuthClient } from '../lib/auth/auth-client';
import { AuthProvider } from '../lib/auth/auth-context';

import { customStyleHooks } from './fluent-style-hooks';

/**
 * The providers above the router. The query client is optional: without one (the browser), the
 * routes that need it get it from {@link QueryLayout}, loaded with the portal's code, so the
 * landing page does not carry the query library; tests pass their own.
 */
export function AppProvider({
  children,
  queryClient,
  authClient,
}: {
  children: ReactNode;
  queryClient?: QueryClient;
  authClient?: AuthClient;
}) {
  const inner = (
    <AuthProvider client={authClient}>
      <SignInDialogProvider>{children}</SignInDialogProvider>
    </AuthProvider>
  );
  return (
    <FluentProvider
      theme={webLightTheme}
      customStyleHooks_unstable={customStyleHooks}
      style={{ minHeight: '100vh' }}
    >
      {queryClient ? (
        <QueryClientProvider client={queryClient}>{inner}</QueryClientProvider>
      ) : (
        inner
      )}
    </FluentProvider>
  );
}
