// One way to follow a pipeline run in the browser (issue 10 §2, ADR 015): the polling rule is a
// parameter (the domain's ONBOARDING_RUN_POLLING, OFFBOARD_RUN_POLLING, CAPTURE_RUN_POLLING, …).
import type { PipelineRun } from '@aegis/contracts';
import { pollDelayMs, shouldPollAgain, type RunPollingRule } from '@aegis/domain';
import { useEffect, useState } from 'react';

export interface PipelineRunStatus {
  readonly run: PipelineRun | undefined;
  /** how many status reads have answered */
  readonly polls: number;
  /** the failed read's message; polling stops on a failure */
  readonly error: string | undefined;
}

export interface UsePipelineRunOptions {
  /** the run as its start answered; nothing is polled while undefined */
  readonly started: PipelineRun | undefined;
  /** reads the run's status (memoise it: a new function restarts the polling) */
  readonly read: (signal: AbortSignal) => Promise<PipelineRun>;
  readonly rule: RunPollingRule;
}

/** Follows a started run under `rule`: first read after the rule's first delay, then its interval. */
export function usePipelineRun({ started, read, rule }: UsePipelineRunOptions): PipelineRunStatus {
  const [status, setStatus] = useState<PipelineRunStatus>({
    run: started,
    polls: 0,
    error: undefined,
  });
  useEffect(() => {
    if (!started) return;
    const controller = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    let polls = 0;
    const poll = async () => {
      try {
        const run = await read(controller.signal);
        if (controller.signal.aborted) return;
        polls += 1;
        setStatus({ run, polls, error: undefined });
        if (shouldPollAgain(rule, run.state)) {
          timer = setTimeout(() => void poll(), pollDelayMs(rule, polls));
        }
      } catch (error) {
        if (controller.signal.aborted) return;
        setStatus((previous) => ({
          ...previous,
          error: error instanceof Error ? error.message : String(error),
        }));
      }
    };
    setStatus({ run: started, polls: 0, error: undefined });
    timer = setTimeout(() => void poll(), pollDelayMs(rule, 0));
    return () => {
      controller.abort();
      clearTimeout(timer);
    };
  }, [started, rule, read]);
  return status;
}
