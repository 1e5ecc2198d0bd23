import type { OnboardingRunResponse, PipelineRun } from '@aegis/contracts';
import { ONBOARDING_RUN_POLLING, type RunPollingRule } from '@aegis/domain';
import { useCallback, useMemo } from 'react';

import { usePipelineRun } from '../../../lib/pipeline-run';
import { getRun } from '../api/onboarding-api';

export interface RunStatus {
  readonly run: PipelineRun | undefined;
  /** 'Error checking pipeline status: {message}' (spec 2 §8) */
  readonly error: string | undefined;
}

/**
 * Follows a started run: onboarding and deploy after 3 s, then every 5 s while inProgress; off-board
 * every 10 s while inProgress or notStarted (spec 2 §4).
 */
export function useRunStatus(
  started: OnboardingRunResponse | undefined,
  rule: RunPollingRule = ONBOARDING_RUN_POLLING,
): RunStatus {
  const initial = useMemo<PipelineRun | undefined>(
    () =>
      started
        ? { id: started.id, state: started.state as PipelineRun['state'], result: null }
        : undefined,
    [started],
  );
  const read = useCallback(
    (signal: AbortSignal) => {
      if (!started) throw new Error('no run');
      return getRun(started, signal);
    },
    [started],
  );
  const { run, error } = usePipelineRun({ started: initial, read, rule });
  return {
    run,
    error: error === undefined ? undefined : `Error checking pipeline status: ${error}`,
  };
}
