import { QueryClientContext, QueryClientProvider } from '@tanstack/react-query';
import { useContext } from 'react';
import { Outlet } from 'react-router';

import { ConfirmProvider } from '../components/confirm-dialog';
import { NotifierProvider } from '../components/notifier';
import { createQueryClient } from '../lib/query-client';

let shared: ReturnType<typeof createQueryClient> | undefined;

/** The one query client of the signed-in screens, made when the first of them opens. */
function sharedQueryClient() {
  shared ??= createQueryClient();
  return shared;
}

/**
 * Gives the routes below a query client, unless one is already provided (tests), and the app's
 * notifier and confirm: they come with the first screen that needs them, not with the landing
 * page (its 150 KB budget, issue 19).
 */
export function QueryLayout() {
  const existing = useContext(QueryClientContext);
  const screens = (
    <NotifierProvider>
      <ConfirmProvider>
        <Outlet />
      </ConfirmProvider>
    </NotifierProvider>
  );
  if (existing) return screens;
  return <QueryClientProvider client={sharedQueryClient()}>{screens}</QueryClientProvider>;
}
