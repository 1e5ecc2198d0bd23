import type {
  CaptureAnalysis,
  CaptureAnalysisBody,
  CaptureBranchList,
  CaptureOverview,
  CapturePullRequestCreated,
  CaptureRun,
  CreateCapturePullRequestBody,
  StartCaptureBody,
} from '@aegis/contracts';
import { queryOptions, useMutation, useQuery } from '@tanstack/react-query';

import { api } from '../../../lib/api-client';

const base = (client: string) => `/api/capture/clients/${encodeURIComponent(client)}`;

function captureBranchesQuery(client: string) {
  return queryOptions({
    queryKey: ['capture', client, 'branches'],
    queryFn: ({ signal }) => api<CaptureBranchList>(`${base(client)}/branches`, { signal }),
    staleTime: 0,
  });
}

export function useCaptureBranches(client: string | undefined) {
  return useQuery({ ...captureBranchesQuery(client ?? ''), enabled: Boolean(client) });
}

export function useCaptureOverview(client: string | undefined) {
  return useQuery({
    queryKey: ['capture', client, 'overview'],
    enabled: Boolean(client),
    staleTime: 0,
    queryFn: ({ signal }) => api<CaptureOverview>(`${base(client ?? '')}/overview`, { signal }),
  });
}

/** The review analysis of a branch with the given exclusions. */
export function useCaptureAnalysis(
  client: string,
  body: { branch: string; excludedProperties: string[]; excludedPaths: string[] },
) {
  return useQuery({
    queryKey: ['capture', client, 'analysis', body],
    staleTime: 60_000,
    queryFn: ({ signal }) =>
      api<CaptureAnalysis>(`${base(client)}/analysis`, {
        method: 'POST',
        body: body satisfies CaptureAnalysisBody,
        signal,
      }),
  });
}

export function useCreateCapturePullRequest(client: string) {
  return useMutation({
    mutationFn: (body: CreateCapturePullRequestBody) =>
      api<CapturePullRequestCreated>(`${base(client)}/pull-requests`, { method: 'POST', body }),
  });
}

export function startCapture(client: string, body: StartCaptureBody): Promise<CaptureRun> {
  return api<CaptureRun>(`${base(client)}/runs`, { method: 'POST', body });
}

export function getCaptureRun(
  client: string,
  runId: number,
  signal?: AbortSignal,
): Promise<CaptureRun> {
  return api<CaptureRun>(`${base(client)}/runs/${runId}`, signal ? { signal } : {});
}
