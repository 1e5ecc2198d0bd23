// Runs started through the projects API or onboarding/deploy/off-board (whose start answers say
// where the run lives): their status is read from /api/projects/{project}/pipelines/{id}/runs/{runId}.
import type { PipelineRun } from '@aegis/contracts';
import type { RunPollingRule } from '@aegis/domain';
import { useCallback, useMemo } from 'react';

import { api } from '../api-client';

import { usePipelineRun, type FollowedRun } from './use-pipeline-run';

/** Where a started run lives, and its state as the start answered. */
export interface ProjectRunRef {
  readonly project: string;
  readonly pipelineId: number;
  readonly id: number;
  readonly state: string;
  readonly result?: string | null;
}

/** Reads a run's state and result. */
function readProjectRun(run: ProjectRunRef, signal?: AbortSignal): Promise<PipelineRun> {
  return api<PipelineRun>(
    `/api/projects/${encodeURIComponent(run.project)}/pipelines/${run.pipelineId}/runs/${run.id}`,
    signal ? { signal } : {},
  );
}

/** Follows a run of the projects API under `rule` (nothing while `started` is undefined). */
export function useProjectRun(
  started: ProjectRunRef | undefined,
  rule: RunPollingRule,
): FollowedRun {
  const initial = useMemo<PipelineRun | undefined>(
    () =>
      started
        ? {
            id: started.id,
            state: started.state as PipelineRun['state'],
            result: (started.result ?? null) as PipelineRun['result'],
          }
        : undefined,
    [started],
  );
  const read = useCallback(
    (signal: AbortSignal) =>
      started ? readProjectRun(started, signal) : Promise.reject(new Error('no run started')),
    [started],
  );
  return usePipelineRun({ started: initial, read, rule });
}
