import type { PipelineRun } from '@aegis/contracts';
import { MANUAL_BACKUP_RUN_POLLING, shouldPollAgain } from '@aegis/domain';
import { useCallback, useEffect, useState } from 'react';

import { usePipelineRun, type RunLogRef } from '../../../lib/pipeline-run';
import { getBackupRun, useStartManualBackup } from '../api/backups';

interface Started {
  readonly client: string;
  readonly run: PipelineRun;
}

/**
 * Manual Backup (spec 3 §4, §7, §9): starts the backup pipeline, then follows its run with the one
 * run hook (lib/pipeline-run): the first read, 5 s after the trigger, reloads the backups, and so
 * does every later read until the run has completed; the screen is backing up until then. A failed
 * trigger, a failed read and a run that did not succeed are logged only (spec 3 §8).
 */
export function useManualBackup(reload: () => Promise<unknown>) {
  const startBackup = useStartManualBackup();
  const [triggering, setTriggering] = useState(false);
  const [started, setStarted] = useState<Started>();
  // the last run started, kept after it completes so its log stays one click away (ADR 042)
  const [logOf, setLogOf] = useState<RunLogRef>();

  const read = useCallback(
    async (signal: AbortSignal): Promise<PipelineRun> => {
      if (!started) throw new Error('no manual backup started');
      const run = await getBackupRun(started.client, started.run.id, signal);
      return {
        id: run.runId,
        state: run.state as PipelineRun['state'],
        result: run.result as PipelineRun['result'],
      };
    },
    [started],
  );
  const { run, polls, error } = usePipelineRun({
    started: started?.run,
    read,
    rule: MANUAL_BACKUP_RUN_POLLING,
  });
  const finished =
    error !== undefined ||
    (polls > 0 && run !== undefined && !shouldPollAgain(MANUAL_BACKUP_RUN_POLLING, run.state));
  const result = run?.result;

  useEffect(() => {
    if (!started || (polls === 0 && error === undefined)) return;
    if (error !== undefined) console.error('Reading the backup run failed', error);
    else if (finished && result !== 'succeeded') {
      console.error(`Backup run #${started.run.id} ended: ${result ?? 'unknown'}`);
    }
    let current = true;
    void reload().finally(() => {
      if (current && finished) setStarted(undefined);
    });
    return () => {
      current = false;
    };
  }, [started, polls, error, finished, result, reload]);

  const start = useCallback(
    async (client: string): Promise<void> => {
      setStarted(undefined);
      setLogOf(undefined);
      setTriggering(true);
      try {
        const answer = await startBackup.mutateAsync(client);
        setStarted({
          client,
          run: { id: answer.runId, state: answer.state as PipelineRun['state'], result: null },
        });
        setLogOf({ project: answer.project, pipelineId: answer.pipelineId, id: answer.runId });
      } catch (failure) {
        // Spec 3 §8: a failed trigger is logged only.
        console.error('Triggering the backup failed', failure);
      } finally {
        setTriggering(false);
      }
    },
    [startBackup],
  );

  /** Stops following the run (another tenant was chosen). */
  const reset = useCallback(() => {
    setStarted(undefined);
    setLogOf(undefined);
  }, []);

  return { isBackingUp: triggering || started !== undefined, start, reset, logOf };
}
