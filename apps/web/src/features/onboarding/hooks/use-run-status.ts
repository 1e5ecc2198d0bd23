import type { OnboardingRunResponse, PipelineRun } from '@aegis/contracts';
import { useEffect, useState } from 'react';

import { getRun } from '../api/onboarding-api';

/** Spec 2 §4, §9: the first read after 3 s, then every 5 s while the run is inProgress. */
export const ONBOARDING_POLLING = { firstDelayInMs: 3000, intervalInMs: 5000 } as const;

export interface RunStatus {
  readonly run: PipelineRun | undefined;
  /** 'Error checking pipeline status: {message}' (spec 2 §8) */
  readonly error: string | undefined;
}

/** Follows a started onboarding run until it is no longer inProgress. */
export function useRunStatus(started: OnboardingRunResponse | undefined): RunStatus {
  const [status, setStatus] = useState<RunStatus>({ run: undefined, error: undefined });
  useEffect(() => {
    if (!started) return;
    const controller = new AbortController();
    let timer: number | undefined;
    const poll = async () => {
      try {
        const run = await getRun(started, controller.signal);
        setStatus({ run, error: undefined });
        if (run.state === 'inProgress')
          timer = window.setTimeout(() => void poll(), ONBOARDING_POLLING.intervalInMs);
      } catch (error) {
        if (controller.signal.aborted) return;
        setStatus((previous) => ({
          ...previous,
          error: `Error checking pipeline status: ${(error as Error).message}`,
        }));
      }
    };
    setStatus({
      run: { id: started.id, state: started.state as PipelineRun['state'], result: null },
      error: undefined,
    });
    timer = window.setTimeout(() => void poll(), ONBOARDING_POLLING.firstDelayInMs);
    return () => {
      controller.abort();
      window.clearTimeout(timer);
    };
  }, [started]);
  return status;
}
