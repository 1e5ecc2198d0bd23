// One way to follow a pipeline run in the browser (issue 10 §2, ADR 015, ADR 011): the polling
// rule is a parameter (the domain's ONBOARDING_RUN_POLLING, OFFBOARD_RUN_POLLING,
// CAPTURE_RUN_POLLING, PIPELINE_CARD_RUN_POLLING, MANUAL_BACKUP_RUN_POLLING).
import type { PipelineRun } from '@aegis/contracts';
import { pollDelayMs, shouldPollAgain, type RunPollingRule } from '@aegis/domain';
import { useEffect, useState } from 'react';

export interface FollowedRun {
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

interface Tracked extends FollowedRun {
  /** the start this status belongs to: a new start never shows the last run's reads */
  readonly of: PipelineRun | undefined;
}

/** Follows a started run under `rule`: first read after the rule's first delay, then its interval. */
export function usePipelineRun({ started, read, rule }: UsePipelineRunOptions): FollowedRun {
  const [status, setStatus] = useState<Tracked>({
    of: started,
    run: started,
    polls: 0,
    error: undefined,
  });
  useEffect(() => {
    if (!started) return;
    const controller = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    let polls = 0;
    let last: PipelineRun = started;
    const poll = async () => {
      try {
        const run = await read(controller.signal);
        if (controller.signal.aborted) return;
        polls += 1;
        last = run;
        setStatus({ of: started, run, polls, error: undefined });
        if (shouldPollAgain(rule, run.state)) {
          timer = setTimeout(() => void poll(), pollDelayMs(rule, polls));
        }
      } catch (error) {
        if (controller.signal.aborted) return;
        setStatus({
          of: started,
          run: last,
          polls,
          error: error instanceof Error ? error.message : String(error),
        });
      }
    };
    timer = setTimeout(() => void poll(), pollDelayMs(rule, 0));
    return () => {
      controller.abort();
      clearTimeout(timer);
    };
  }, [started, rule, read]);
  if (status.of !== started) return { run: started, polls: 0, error: undefined };
  return { run: status.run, polls: status.polls, error: status.error };
}
