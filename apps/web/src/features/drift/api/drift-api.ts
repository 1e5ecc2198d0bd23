import type { ClientDriftDto, DriftCheckStartedDto, DriftRevertStartedDto } from '@aegis/contracts';
import { useMutation, useQuery } from '@tanstack/react-query';

import { api } from '../../../lib/api-client';

export function useClientDrift(client: string, enabled: boolean) {
  return useQuery({
    queryKey: ['drift', client],
    enabled,
    queryFn: ({ signal }) =>
      api<ClientDriftDto>(`/api/drift/${encodeURIComponent(client)}`, { signal }),
  });
}

/** A full drift check of the client now (a pipeline run; its result is stored when it ends). */
export function useStartDriftCheck(client: string) {
  return useMutation({
    mutationFn: () =>
      api<DriftCheckStartedDto>(`/api/drift/${encodeURIComponent(client)}/checks`, {
        method: 'POST',
      }),
  });
}

/**
 * Chosen drifted objects put back as the client's approved configuration on main has them (a run
 * of the deploy pipeline, issue 28 §5); an Approver's.
 */
export function useRevertDrift(client: string) {
  return useMutation({
    mutationFn: (objects: readonly string[]) =>
      api<DriftRevertStartedDto>(`/api/drift/${encodeURIComponent(client)}/revert-runs`, {
        method: 'POST',
        body: { objects },
      }),
  });
}
