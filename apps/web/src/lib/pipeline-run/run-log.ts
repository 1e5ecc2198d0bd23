// A pipeline run's log (GET /api/projects/{project}/pipelines/{id}/runs/{runId}/log, Reader): read
// when someone opens it, again on Refresh; a running run's log grows, so it is never kept fresh.
import type { RunLog } from '@aegis/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';

import { api } from '../api-client';

/** Where a run lives: enough to read its log. */
export interface RunLogRef {
  readonly project: string;
  readonly pipelineId: number;
  /** the run id */
  readonly id: number;
}

export function runLogPath(run: RunLogRef): string {
  return `/api/projects/${encodeURIComponent(run.project)}/pipelines/${run.pipelineId}/runs/${run.id}/log`;
}

export function runLogQuery(run: RunLogRef) {
  return queryOptions({
    queryKey: ['pipeline-run-log', run.project, run.pipelineId, run.id],
    queryFn: ({ signal }) => api<RunLog>(runLogPath(run), { signal }),
    staleTime: 0,
    gcTime: 0,
  });
}

/** The run's log, read only while `enabled` (the log is open). */
export function useRunLog(run: RunLogRef, enabled: boolean) {
  return useQuery({ ...runLogQuery(run), enabled });
}
