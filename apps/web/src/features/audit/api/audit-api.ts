import type { AuditPage } from '@aegis/contracts';
import { useInfiniteQuery } from '@tanstack/react-query';

import { api } from '../../../lib/api-client';

/** The filters of the Audit screen; '' means "any" (for `from`/`to`: the server's default). */
export interface AuditFilters {
  /** First UTC day (yyyy-MM-dd), inclusive. */
  readonly from: string;
  /** Last UTC day (yyyy-MM-dd), inclusive. */
  readonly to: string;
  readonly actor: string;
  readonly client: string;
  /** `METHOD /route`, exactly as events name it. */
  readonly action: string;
}

const AUDIT_PAGE_SIZE = 50;

function auditUrl(filters: AuditFilters, continuationToken?: string): string {
  const query = new URLSearchParams({ pageSize: String(AUDIT_PAGE_SIZE) });
  if (filters.from) query.set('from', filters.from);
  if (filters.to) query.set('to', filters.to);
  if (filters.actor.trim()) query.set('actor', filters.actor.trim());
  if (filters.client) query.set('client', filters.client);
  if (filters.action) query.set('action', filters.action);
  if (continuationToken) query.set('continuationToken', continuationToken);
  return `/api/audit?${query.toString()}`;
}

/** Audit events newest first, one page of 50 at a time ("Load older events"). */
export function useAuditEvents(filters: AuditFilters, enabled: boolean) {
  return useInfiniteQuery({
    queryKey: ['audit', filters],
    enabled,
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam, signal }) => api<AuditPage>(auditUrl(filters, pageParam), { signal }),
    getNextPageParam: (last) => last.continuationToken,
    // an audit trail grows all the time: always read it fresh when the screen opens
    staleTime: 0,
  });
}
