// Following a pipeline run (spec 2 §4, spec 3 §4): the polling rules as data, and what a run's
// state means for the screens. The web hook takes a rule as a parameter; no timer lives here.
import { BACKUP_RELOAD_DELAY_MS } from '../backups/constants';
import { CAPTURE_PROGRESS, nextCaptureProgress } from '../capture/capture-run';

export type RunState = 'notStarted' | 'inProgress' | 'canceling' | 'completed' | 'unknown';

export interface RunPollingRule {
  /** wait before the first status read */
  readonly firstDelayMs: number;
  /** wait between later reads */
  readonly intervalMs: number;
  /** polling goes on while the run's state is one of these */
  readonly continueWhile: readonly RunState[];
}

/** Spec 2 §4: onboarding and deploy runs: first read after 3 s, then every 5 s while inProgress. */
export const ONBOARDING_RUN_POLLING: RunPollingRule = {
  firstDelayMs: 3_000,
  intervalMs: 5_000,
  continueWhile: ['inProgress'],
};
/** @alias the same rule under the name spec 2 §4 gives deploy runs */
export const DEPLOY_RUN_POLLING = ONBOARDING_RUN_POLLING;

/** Spec 2 §4: off-board runs: every 10 s while inProgress or notStarted. */
export const OFFBOARD_RUN_POLLING: RunPollingRule = {
  firstDelayMs: 10_000,
  intervalMs: 10_000,
  continueWhile: ['inProgress', 'notStarted'],
};

/** Spec 3 §4, §9: the capture run is polled every 5 s until it completes. */
export const CAPTURE_RUN_POLLING: RunPollingRule = {
  firstDelayMs: 5_000,
  intervalMs: 5_000,
  continueWhile: ['notStarted', 'inProgress', 'canceling', 'unknown'],
};

/** The pipeline cards (Client Pipelines, a project's pipelines): every 2 s until the run completes. */
export const PIPELINE_CARD_RUN_POLLING: RunPollingRule = {
  firstDelayMs: 2_000,
  intervalMs: 2_000,
  continueWhile: ['notStarted', 'inProgress', 'canceling', 'unknown'],
};

/**
 * Spec 3 §4, §7, §9: a manual backup's run is first read when the backups reload, 5 s after the
 * trigger, then every 5 s until it completes.
 */
export const MANUAL_BACKUP_RUN_POLLING: RunPollingRule = {
  firstDelayMs: BACKUP_RELOAD_DELAY_MS,
  intervalMs: 5_000,
  continueWhile: ['notStarted', 'inProgress', 'canceling'],
};

/** Whether a run in `state` is read again under `rule`. */
export function shouldPollAgain(rule: RunPollingRule, state: RunState): boolean {
  return rule.continueWhile.includes(state);
}

/** The wait before read number `pollIndex` (0 = the first read after the start). */
export function pollDelayMs(rule: RunPollingRule, pollIndex: number): number {
  return pollIndex === 0 ? rule.firstDelayMs : rule.intervalMs;
}

/** Spec 2 §4: completed + succeeded is success, failed an error, any other result a warning. */
export type RunOutcome = 'running' | 'success' | 'error' | 'warning';

export function runOutcome(run: { state: RunState; result?: string | null }): RunOutcome {
  if (run.state !== 'completed') return 'running';
  if (run.result === 'succeeded') return 'success';
  if (run.result === 'failed') return 'error';
  return 'warning';
}

/**
 * The capture's progress after a status read (spec 3 §4, §9): +10 per poll up to 90 while the run
 * goes on, 100 on success; a finished run that did not succeed keeps its value.
 */
export function captureProgressAfterPoll(
  previous: number,
  run: { state: RunState; result?: string | null },
): number {
  if (run.state === 'completed') {
    return run.result === 'succeeded' ? CAPTURE_PROGRESS.done : previous;
  }
  return nextCaptureProgress(previous);
}
