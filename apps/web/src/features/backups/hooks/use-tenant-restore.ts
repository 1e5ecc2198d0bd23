import type { PipelineRun } from '@aegis/contracts';
import { MANUAL_BACKUP_RUN_POLLING, shouldPollAgain } from '@aegis/domain';
import { useCallback, useState } from 'react';

import { usePipelineRun, type RunLogRef } from '../../../lib/pipeline-run';
import { getTenantRestoreRun, useStartTenantRestore } from '../api/backups';

export interface TenantRestore {
  readonly client: string;
  readonly tag: string;
  readonly count: number;
  readonly log: RunLogRef;
}

/**
 * Chosen policies straight back into the tenant (issue 30 §4): starts the run, then follows it
 * with the one run hook, polling as the manual backup does, until it has completed.
 */
export function useTenantRestore() {
  const startRestore = useStartTenantRestore();
  const [restore, setRestore] = useState<TenantRestore & { run: PipelineRun }>();

  const read = useCallback(
    async (signal: AbortSignal): Promise<PipelineRun> => {
      if (!restore) throw new Error('no tenant restore started');
      const run = await getTenantRestoreRun(restore.client, restore.run.id, signal);
      return {
        id: run.runId,
        state: run.state as PipelineRun['state'],
        result: run.result as PipelineRun['result'],
      };
    },
    [restore],
  );
  const followed = usePipelineRun({
    started: restore?.run,
    read,
    rule: MANUAL_BACKUP_RUN_POLLING,
  });
  const finished =
    followed.run !== undefined &&
    followed.polls > 0 &&
    !shouldPollAgain(MANUAL_BACKUP_RUN_POLLING, followed.run.state);

  const start = useCallback(
    async (client: string, tag: string, policies: string[]): Promise<void> => {
      const answer = await startRestore.mutateAsync({ client, tag, policies });
      setRestore({
        client,
        tag,
        count: policies.length,
        log: { project: answer.project, pipelineId: answer.pipelineId, id: answer.runId },
        run: { id: answer.runId, state: answer.state as PipelineRun['state'], result: null },
      });
    },
    [startRestore],
  );

  const reset = useCallback(() => setRestore(undefined), []);

  return {
    restore,
    /** running, succeeded, failed (the run's result), or unknown (its state could not be read) */
    status:
      restore === undefined
        ? undefined
        : followed.error !== undefined
          ? ('unknown' as const)
          : !finished
            ? ('running' as const)
            : followed.run?.result === 'succeeded'
              ? ('succeeded' as const)
              : ('failed' as const),
    result: followed.run?.result ?? null,
    start,
    reset,
  };
}
