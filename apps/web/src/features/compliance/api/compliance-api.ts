import type {
  AcceptanceDecisionBody,
  AcceptanceRequested,
  AcceptDeviationsBody,
  AcceptDeviationsResult,
  ComplianceReport,
  PolicyDocument,
} from '@aegis/contracts';
import type { AcceptedDeviationsConfig, ConfirmedMatch, MatchingConfig } from '@aegis/domain';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';

import { api } from '../../../lib/api-client';

const base = (client: string) => `/api/compliance/${encodeURIComponent(client)}`;

/**
 * The Baseline Compliance report of a client (main, or a capture branch). Matches only this browser
 * holds (`pending`) are applied by the server too, which holds the policies.
 */
function complianceReportQuery(
  client: string,
  branch?: string,
  pending: readonly ConfirmedMatch[] = [],
) {
  return queryOptions({
    queryKey: ['compliance', client, 'report', branch ?? 'main', pending],
    queryFn: ({ signal }) =>
      pending.length === 0
        ? api<ComplianceReport>(
            `${base(client)}${branch ? `?branch=${encodeURIComponent(branch)}` : ''}`,
            { signal },
          )
        : api<ComplianceReport>(`${base(client)}/preview`, {
            method: 'POST',
            body: { ...(branch ? { branch } : {}), pendingMatches: pending },
            signal,
          }),
    staleTime: 0,
    retry: false,
  });
}

export function useComplianceReport(
  client: string,
  branch?: string,
  pending: readonly ConfirmedMatch[] = [],
) {
  return useQuery(complianceReportQuery(client, branch, pending));
}

export function useAcceptDeviations(client: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: AcceptDeviationsBody) =>
      // a critical deviation answers 202: it waits for a second Approver (ADR 051)
      api<AcceptDeviationsResult | AcceptanceRequested>(`${base(client)}/accepted-deviations`, {
        method: 'POST',
        body,
      }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['compliance', client, 'report'] }),
  });
}

/** A second Approver approves or rejects a critical acceptance someone else asked for (ADR 051). */
export function useDecideAcceptance(client: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: AcceptanceDecisionBody) =>
      api<AcceptedDeviationsConfig>(`${base(client)}/accepted-deviations/decisions`, {
        method: 'POST',
        body,
      }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['compliance', client, 'report'] }),
  });
}

export function useRevokeAcceptance(client: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (path: string) =>
      api(`${base(client)}/accepted-deviations?path=${encodeURIComponent(path)}`, {
        method: 'DELETE',
      }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['compliance', client, 'report'] }),
  });
}

/** Matching configuration writes (spec 3 §7): save (merge), delete one baseline name, clear all. */
export const matchingApi = {
  save: (client: string, matches: ConfirmedMatch[]) =>
    api<MatchingConfig>(`${base(client)}/matching/matches`, {
      method: 'POST',
      body: { matches },
    }),
  remove: (client: string, baselineName: string) =>
    api<MatchingConfig>(
      `${base(client)}/matching/matches?baselineName=${encodeURIComponent(baselineName)}`,
      { method: 'DELETE' },
    ),
  clear: (client: string) => api<MatchingConfig>(`${base(client)}/matching`, { method: 'DELETE' }),
};

/** A suggested client policy's document, loaded when a user opens View Detailed Comparison. */
export function useClientPolicy(client: string, path: string | undefined, branch?: string) {
  return useQuery({
    queryKey: ['compliance', client, 'policy', 'client', path, branch ?? 'main'],
    queryFn: ({ signal }) =>
      api<PolicyDocument>(
        `${base(client)}/policy?side=client&path=${encodeURIComponent(path ?? '')}${
          branch ? `&branch=${encodeURIComponent(branch)}` : ''
        }`,
        { signal },
      ),
    enabled: path !== undefined,
    staleTime: 60_000,
  });
}
