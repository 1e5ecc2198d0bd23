import type { KnownClientList } from '@aegis/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';

import { api } from '../api-client';

/** The one client list (ADR 054): every code Aegis knows, with what it knows of each. */
export const clientsQuery = queryOptions({
  queryKey: ['clients'],
  queryFn: ({ signal }) => api<KnownClientList>('/api/clients', { signal }),
});

/** The client list every picker and screen reads (GET /api/clients). */
export function useClients() {
  return useQuery(clientsQuery);
}
