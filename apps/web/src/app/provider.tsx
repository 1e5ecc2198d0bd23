import { FluentProvider, webLightTheme } from '@fluentui/react-components';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';

import { SignInDialogProvider } from '../components/sign-in-dialog';
import type { AuthClient } from '../lib/auth/auth-client';
import { AuthProvider } from '../lib/auth/auth-context';
import { createQueryClient } from '../lib/query-client';

export function AppProvider({
  children,
  queryClient,
  authClient,
}: {
  children: ReactNode;
  queryClient?: QueryClient;
  authClient?: AuthClient;
}) {
  const [client] = useState(() => queryClient ?? createQueryClient());
  return (
    <FluentProvider theme={webLightTheme} style={{ minHeight: '100vh' }}>
      <QueryClientProvider client={client}>
        <AuthProvider client={authClient}>
          <SignInDialogProvider>{children}</SignInDialogProvider>
        </AuthProvider>
      </QueryClientProvider>
    </FluentProvider>
  );
}
