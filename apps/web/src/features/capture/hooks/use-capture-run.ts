import type { CaptureRun, PipelineRun } from '@aegis/contracts';
import {
  CAPTURE_MESSAGES,
  CAPTURE_PROGRESS,
  CAPTURE_RUN_POLLING,
  captureProgressAfterPoll,
  type CaptureStatusType,
} from '@aegis/domain';
import { useCallback, useEffect, useMemo, useState } from 'react';

import { usePipelineRun, useRunLogFindings, type RunLogRef } from '../../../lib/pipeline-run';
import { getCaptureRun, startCapture } from '../api/capture-api';

export interface CaptureStatus {
  type: CaptureStatusType;
  title: string;
  message: string;
  progress: number;
  branch?: string;
  /** why a failed run failed: the first error its log names */
  reason?: string;
}

const TITLES: Record<CaptureStatusType, string> = {
  info: 'In Progress',
  success: 'Success',
  error: 'Error',
  warning: 'Warning',
};

const status = (
  type: CaptureStatusType,
  message: string,
  progress: number,
  branch?: string,
): CaptureStatus => ({
  type,
  title: TITLES[type],
  message,
  progress,
  ...(branch ? { branch } : {}),
});

const asPipelineRun = (run: CaptureRun): PipelineRun => ({
  id: run.runId,
  state: run.state,
  result: run.result as PipelineRun['result'],
});

/** The capture's progress after `polls` status reads, the last one being `run` (spec 3 §4). */
function progressAfter(polls: number, run: PipelineRun): number {
  let progress: number = CAPTURE_PROGRESS.started;
  for (let i = 1; i < polls; i += 1) {
    progress = captureProgressAfterPoll(progress, { state: 'inProgress' });
  }
  return polls === 0 ? progress : captureProgressAfterPoll(progress, run);
}

interface Started {
  readonly client: string;
  readonly run: CaptureRun;
}

/**
 * Starts a capture run and follows it with the one pipeline-run hook (lib/pipeline-run) under the
 * capture's polling rule (spec 3 §4): starting 10, started 20, +10 per poll every 5 s up to 90,
 * 100 when it succeeds; a failed result, a failed poll and a failed start each stop the run with
 * the spec's message.
 */
export function useCaptureRun() {
  const [started, setStarted] = useState<Started>();
  const [beforeRun, setBeforeRun] = useState<CaptureStatus>();
  const [starting, setStarting] = useState(false);

  const startedRun = useMemo(() => (started ? asPipelineRun(started.run) : undefined), [started]);
  const read = useCallback(
    async (signal: AbortSignal) =>
      asPipelineRun(await getCaptureRun(started!.client, started!.run.runId, signal)),
    [started],
  );
  const followed = usePipelineRun({ started: startedRun, read, rule: CAPTURE_RUN_POLLING });
  // where the started run lives: its log can be opened (ADR 042) and says why a run failed
  const logOf = useMemo<RunLogRef | undefined>(
    () =>
      started && !beforeRun
        ? {
            project: started.run.project,
            pipelineId: started.run.pipelineId,
            id: started.run.runId,
          }
        : undefined,
    [started, beforeRun],
  );
  const { findings, onFinished } = useRunLogFindings(logOf);
  const finishedResult =
    followed.run?.state === 'completed' ? (followed.run.result ?? 'unknown') : undefined;
  useEffect(() => {
    if (finishedResult !== undefined && finishedResult !== 'succeeded') onFinished(finishedResult);
  }, [finishedResult, onFinished]);

  let current: CaptureStatus | undefined = beforeRun;
  let running = starting;
  if (started && !beforeRun) {
    const { run, polls, error } = followed;
    const branch = started.run.branch;
    if (error !== undefined) {
      current = status('error', CAPTURE_MESSAGES.pollError, progressAfter(polls, run!));
    } else if (!run || polls === 0) {
      current = status(
        'info',
        `Pipeline started (run #${started.run.runId}). Capturing configuration...`,
        CAPTURE_PROGRESS.started,
      );
      running = true;
    } else if (run.state === 'completed') {
      current =
        run.result === 'succeeded'
          ? status('success', CAPTURE_MESSAGES.success, CAPTURE_PROGRESS.done, branch)
          : {
              ...status(
                'error',
                CAPTURE_MESSAGES.failed(run.result ?? 'unknown'),
                progressAfter(polls, run),
              ),
              ...(findings.failure ? { reason: findings.failure } : {}),
            };
    } else {
      current = status(
        run.state === 'canceling' ? 'warning' : 'info',
        CAPTURE_MESSAGES.inProgress(run.state),
        progressAfter(polls, run),
      );
      running = true;
    }
  }

  const trigger = useCallback(
    async (
      client: string,
      options: { excludedProperties: string[]; excludedPaths: string[]; baselineVersion: string },
    ) => {
      setStarted(undefined);
      setStarting(true);
      setBeforeRun(status('info', 'Starting capture pipeline...', CAPTURE_PROGRESS.starting));
      try {
        const run = await startCapture(client, options);
        if (!run.runId) {
          setBeforeRun(status('error', CAPTURE_MESSAGES.noRunId, 0));
          return;
        }
        setBeforeRun(undefined);
        setStarted({ client, run });
      } catch (error) {
        setBeforeRun(
          status(
            'error',
            CAPTURE_MESSAGES.startFailed(error instanceof Error ? error.message : String(error)),
            0,
          ),
        );
      } finally {
        setStarting(false);
      }
    },
    [],
  );

  return { status: current, running, trigger, logOf };
}
