import {
  QueryClientContext,
  QueryClientProvider,
  useQueryClient,
  type QueryClient,
} from '@tanstack/react-query';
import { useContext, useEffect } from 'react';
import { Outlet } from 'react-router';

import { ConfirmProvider } from '../components/confirm-dialog';
import { NotifierProvider, useNotify } from '../components/notifier';
import { ApiError } from '../lib/api-client';
import { createQueryClient } from '../lib/query-client';

let shared: ReturnType<typeof createQueryClient> | undefined;

/** The one query client of the signed-in screens, made when the first of them opens. */
function sharedQueryClient() {
  shared ??= createQueryClient();
  return shared;
}

/** How long the notice of a refused heavy request stays: about as long as one takes. */
const TOO_MANY_REQUESTS_NOTICE_IN_MS = 10_000;

/**
 * A request the server refused because the user already has too many heavy ones running (429,
 * ADR 057) is told through the app's notifier, whichever screen asked: its message says what to
 * wait for.
 */
function TooManyRequestsNotices({ client }: { client: QueryClient }) {
  const notify = useNotify();
  useEffect(() => {
    const tell = (error: unknown) => {
      if (error instanceof ApiError && error.status === 429) {
        notify({
          intent: 'warning',
          title: error.message,
          timeoutInMs: TOO_MANY_REQUESTS_NOTICE_IN_MS,
        });
      }
    };
    const stopQueries = client.getQueryCache().subscribe((event) => {
      if (event.type === 'updated' && event.action.type === 'error') tell(event.action.error);
    });
    const stopMutations = client.getMutationCache().subscribe((event) => {
      if (event.type === 'updated' && event.action.type === 'error') tell(event.action.error);
    });
    return () => {
      stopQueries();
      stopMutations();
    };
  }, [client, notify]);
  return null;
}

function Screens() {
  const client = useQueryClient();
  return (
    <NotifierProvider>
      <ConfirmProvider>
        <TooManyRequestsNotices client={client} />
        <Outlet />
      </ConfirmProvider>
    </NotifierProvider>
  );
}

/**
 * Gives the routes below a query client, unless one is already provided (tests), and the app's
 * notifier and confirm: they come with the first screen that needs them, not with the landing
 * page (its 150 KB budget, issue 19).
 */
export function QueryLayout() {
  const existing = useContext(QueryClientContext);
  if (existing) return <Screens />;
  return (
    <QueryClientProvider client={sharedQueryClient()}>
      <Screens />
    </QueryClientProvider>
  );
}
