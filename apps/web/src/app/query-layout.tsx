import { QueryClientContext, QueryClientProvider } from '@tanstack/react-query';
import { useContext } from 'react';
import { Outlet } from 'react-router';

import { createQueryClient } from '../lib/query-client';

let shared: ReturnType<typeof createQueryClient> | undefined;

/** The one query client of the signed-in screens, made when the first of them opens. */
function sharedQueryClient() {
  shared ??= createQueryClient();
  return shared;
}

/** Gives the routes below a query client, unless one is already provided (tests). */
export function QueryLayout() {
  const existing = useContext(QueryClientContext);
  if (existing) return <Outlet />;
  return (
    <QueryClientProvider client={sharedQueryClient()}>
      <Outlet />
    </QueryClientProvider>
  );
}
