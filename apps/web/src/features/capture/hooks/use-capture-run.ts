import {
  CAPTURE_MESSAGES,
  CAPTURE_POLL_INTERVAL_MS,
  CAPTURE_PROGRESS,
  nextCaptureProgress,
  type CaptureStatusType,
} from '@aegis/domain';
import { useCallback, useEffect, useRef, useState } from 'react';

import { getCaptureRun, startCapture } from '../api/capture-api';

export interface CaptureStatus {
  type: CaptureStatusType;
  title: string;
  message: string;
  progress: number;
  branch?: string;
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

/**
 * Starts a capture run and follows it (spec 3 §4): starting 10, started 20, +10 per poll every
 * 5 s up to 90, 100 when it succeeds; a failed result, a failed poll and a failed start each stop
 * the run with the spec's message.
 */
export function useCaptureRun(pollIntervalMs = CAPTURE_POLL_INTERVAL_MS) {
  const [current, setCurrent] = useState<CaptureStatus>();
  const [running, setRunning] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const alive = useRef(true);

  useEffect(() => {
    alive.current = true;
    return () => {
      alive.current = false;
      clearTimeout(timer.current);
    };
  }, []);

  const finish = useCallback((next: CaptureStatus) => {
    if (!alive.current) return;
    setCurrent(next);
    setRunning(false);
  }, []);

  const poll = useCallback(
    (client: string, runId: number, progress: number) => {
      timer.current = setTimeout(() => {
        void (async () => {
          try {
            const run = await getCaptureRun(client, runId);
            if (!alive.current) return;
            if (run.state === 'completed') {
              if (run.result === 'succeeded') {
                finish(
                  status('success', CAPTURE_MESSAGES.success, CAPTURE_PROGRESS.done, run.branch),
                );
              } else {
                finish(status('error', CAPTURE_MESSAGES.failed(run.result ?? 'unknown'), progress));
              }
              return;
            }
            const next = nextCaptureProgress(progress);
            setCurrent(
              status(
                run.state === 'canceling' ? 'warning' : 'info',
                CAPTURE_MESSAGES.inProgress(run.state),
                next,
              ),
            );
            poll(client, runId, next);
          } catch {
            finish(status('error', CAPTURE_MESSAGES.pollError, progress));
          }
        })();
      }, pollIntervalMs);
    },
    [finish, pollIntervalMs],
  );

  const trigger = useCallback(
    async (
      client: string,
      options: { excludedProperties: string[]; excludedPaths: string[]; baselineVersion: string },
    ) => {
      clearTimeout(timer.current);
      setRunning(true);
      setCurrent(status('info', 'Starting capture pipeline...', CAPTURE_PROGRESS.starting));
      let runId: number | undefined;
      try {
        runId = (await startCapture(client, options)).runId;
      } catch (error) {
        finish(
          status(
            'error',
            CAPTURE_MESSAGES.startFailed(error instanceof Error ? error.message : String(error)),
            0,
          ),
        );
        return;
      }
      if (!runId) {
        finish(status('error', CAPTURE_MESSAGES.noRunId, 0));
        return;
      }
      if (!alive.current) return;
      setCurrent(
        status(
          'info',
          `Pipeline started (run #${runId}). Capturing configuration...`,
          CAPTURE_PROGRESS.started,
        ),
      );
      poll(client, runId, CAPTURE_PROGRESS.started);
    },
    [finish, poll],
  );

  return { status: current, running, trigger };
}
