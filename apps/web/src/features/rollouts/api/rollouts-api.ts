// Rollouts in rings (issue 30 §3): the plan's captures, the rollout list and one rollout, followed
// while the ring loop moves them on the server.
import type {
  BaselineCommitList,
  CreateRolloutBody,
  RolloutCapture,
  RolloutDto,
  RolloutList,
  RolloutPlanDto,
  RolloutPlanStarted,
  UnreadDecisionBody,
} from '@aegis/contracts';
import type { RolloutStatus } from '@aegis/domain';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';

import { api } from '../../../lib/api-client';

/** A rollout in one of these moves on without anyone: the screen reads it again. */
const MOVING: readonly RolloutStatus[] = ['running', 'rolling-back'];
const FOLLOW_INTERVAL_IN_MS = 5_000;

export function useRollouts() {
  return useQuery({
    queryKey: ['rollouts'],
    queryFn: ({ signal }) => api<RolloutList>('/api/rollouts', { signal }),
  });
}

export function useRollout(id: string) {
  return useQuery({
    queryKey: ['rollouts', id],
    queryFn: ({ signal }) => api<RolloutDto>(`/api/rollouts/${encodeURIComponent(id)}`, { signal }),
    refetchInterval: (query) =>
      query.state.data && MOVING.includes(query.state.data.status) ? FOLLOW_INTERVAL_IN_MS : false,
  });
}

export function useStartPlan() {
  return useMutation({
    mutationFn: (clients: readonly string[]) =>
      api<RolloutPlanStarted>('/api/rollouts/plans', { method: 'POST', body: { clients } }),
  });
}

/** The commits of main that changed the baseline or a layer, newest first: what may roll out. */
export function useBaselineCommits() {
  return useQuery({
    queryKey: ['rollout-commits'],
    queryFn: ({ signal }) => api<BaselineCommitList>('/api/rollouts/commits', { signal }),
  });
}

/**
 * The plan of the captures at a baseline commit (main's tip when none is given), read again
 * while a capture still runs.
 */
export function usePlan(captures: readonly RolloutCapture[] | undefined, commit?: string) {
  const key = (captures ?? []).map((c) => `${c.client}:${c.runId}`).join(',');
  return useQuery({
    queryKey: ['rollout-plan', key, commit],
    enabled: key !== '',
    queryFn: ({ signal }) =>
      api<RolloutPlanDto>(
        `/api/rollouts/plan?captures=${encodeURIComponent(key)}${commit ? `&commit=${commit}` : ''}`,
        { signal },
      ),
    refetchInterval: (query) =>
      query.state.data?.tenants.some((t) => t.status === 'capturing')
        ? FOLLOW_INTERVAL_IN_MS
        : false,
  });
}

export function useCreateRollout() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateRolloutBody) =>
      api<RolloutDto>('/api/rollouts', { method: 'POST', body }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['rollouts'] }),
  });
}

export type RolloutAction = 'start' | 'approve' | 'resume' | 'abort' | 'rollback';

export function useRolloutAction(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (action: RolloutAction) =>
      api<RolloutDto>(`/api/rollouts/${encodeURIComponent(id)}/${action}`, { method: 'POST' }),
    onSuccess: (rollout) => {
      queryClient.setQueryData(['rollouts', id], rollout);
      return queryClient.invalidateQueries({ queryKey: ['rollouts'], exact: true });
    },
  });
}

/**
 * An Approver's decision on a tenant whose plan could not read some workloads (ADR 087), on the
 * rollout as read (its etag): a 409 means it changed meanwhile, so it is read again.
 */
export function useUnreadDecision(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: UnreadDecisionBody) =>
      api<RolloutDto>(`/api/rollouts/${encodeURIComponent(id)}/unread-decisions`, {
        method: 'POST',
        body,
      }),
    onSuccess: (rollout) => queryClient.setQueryData(['rollouts', id], rollout),
    onError: () => queryClient.invalidateQueries({ queryKey: ['rollouts', id], exact: true }),
  });
}
