// A pipeline run's log (GET /api/projects/{project}/pipelines/{id}/runs/{runId}/log, Reader): read
// when someone opens it, again on Refresh; a running run's log grows, so it is never kept fresh.
import type { RunLog } from '@aegis/contracts';
import { findRunLogFindings, type RunLogFindings } from '@aegis/domain';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { useCallback, useState } from 'react';

import { api } from '../api-client';

/** Where a run lives: enough to read its log. */
export interface RunLogRef {
  readonly project: string;
  readonly pipelineId: number;
  /** the run id */
  readonly id: number;
}

function runLogPath(run: RunLogRef): string {
  return `/api/projects/${encodeURIComponent(run.project)}/pipelines/${run.pipelineId}/runs/${run.id}/log`;
}

function runLogQuery(run: RunLogRef) {
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

const NO_FINDINGS: RunLogFindings = {};

/**
 * What a finished run's log names (the deploy's rollback point, changes waiting for Multi Admin
 * Approval): read once, when `onFinished` is called with the run's result. A run that is not the
 * one read (a new run started) has no findings until it finishes in turn.
 */
export function useRunLogFindings(run: RunLogRef | undefined) {
  const [read, setRead] = useState<{ of: RunLogRef; findings: RunLogFindings }>();
  const onFinished = useCallback(
    (result: string | null) => {
      if (!run || result === null) return;
      void api<RunLog>(runLogPath(run))
        .then((log) => setRead({ of: run, findings: findRunLogFindings(log.lines) }))
        // the run's status and its 'View log' stay; only the findings are missing
        .catch(() => undefined);
    },
    [run],
  );
  return { findings: read && read.of === run ? read.findings : NO_FINDINGS, onFinished };
}
