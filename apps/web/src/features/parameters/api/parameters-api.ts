import type {
  BaselineRunResponse,
  ClientLayersBody,
  ClientParametersDto,
  DroppedLayersOffboardBody,
  ParameterChangeBody,
  ProposedSettingsChangeDto,
} from '@aegis/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';

import { api } from '../../../lib/api-client';

const key = (client: string) => ['client-parameters', client];

/** The client's parameters, where its baseline uses them, its layers and open proposals. */
export function useClientParameters(client: string, enabled: boolean) {
  return useQuery({
    queryKey: key(client),
    enabled,
    queryFn: ({ signal }) =>
      api<ClientParametersDto>(`/api/clients/${encodeURIComponent(client)}/parameters`, {
        signal,
      }),
  });
}

/** A change of parameters, proposed as a pull request; the list shows it as pending. */
export function useProposeParameters(client: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: ParameterChangeBody) =>
      api<ProposedSettingsChangeDto>(
        `/api/clients/${encodeURIComponent(client)}/parameters/changes`,
        { method: 'POST', body },
      ),
    onSettled: () => queryClient.invalidateQueries({ queryKey: key(client) }),
  });
}

/** The client's layers in a new order, proposed as a pull request. */
export function useProposeLayers(client: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: ClientLayersBody) =>
      api<ProposedSettingsChangeDto>(`/api/clients/${encodeURIComponent(client)}/layers/changes`, {
        method: 'POST',
        body,
      }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: key(client) }),
  });
}

/** ADR 079: the off-board run removing what the client's dropped layers left in its tenant. */
export function useOffboardDroppedLayers(client: string) {
  return useMutation({
    mutationFn: (body: DroppedLayersOffboardBody) =>
      api<BaselineRunResponse>(`/api/clients/${encodeURIComponent(client)}/dropped-layers/runs`, {
        method: 'POST',
        body,
      }),
  });
}
