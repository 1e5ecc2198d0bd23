import type { StartRunBody } from '@aegis/contracts';
import { useState } from 'react';

import { ApiError } from '../../../lib/api-client';
import { useStartRun } from '../api/pipelines';

export type RunOutcome = 'success' | 'error' | 'signed-out';

/** Starts one pipeline and remembers the outcome and run id for its card. */
export function usePipelineRun(project: string, pipelineId: number) {
  const startRun = useStartRun();
  const [outcome, setOutcome] = useState<RunOutcome>();
  const [runId, setRunId] = useState<number>();

  async function run(body: StartRunBody): Promise<void> {
    setOutcome(undefined);
    try {
      const started = await startRun.mutateAsync({ project, pipelineId, body });
      setRunId(started.id);
      setOutcome('success');
    } catch (error) {
      setOutcome(error instanceof ApiError && error.status === 401 ? 'signed-out' : 'error');
    }
  }

  return { run, outcome, runId, starting: startRun.isPending };
}
