import type { PipelineRun } from '@aegis/contracts';
import { pipelineStatusText, runOutcome, type RunPollingRule } from '@aegis/domain';
import {
  makeStyles,
  MessageBar,
  MessageBarActions,
  MessageBarBody,
  Spinner,
} from '@fluentui/react-components';
import { useEffect } from 'react';

import {
  useProjectRun,
  type FollowedRun,
  type ProjectRunRef,
  type RunLogRef,
} from '../lib/pipeline-run';

import { RunLogButton } from './run-log-dialog';

const useStyles = makeStyles({
  spinner: { display: 'inline-flex', marginRight: '8px', verticalAlign: 'middle' },
});

/** Spec 2 §2: 'Pipeline status: {state} - {result}'. */
const describeRunDefault = (run: PipelineRun): string => pipelineStatusText(run.state, run.result);

/** Spec 2 §8: 'Error checking pipeline status: {message}'. */
const describeReadErrorDefault = (message: string): string =>
  `Error checking pipeline status: ${message}`;

export interface PipelineRunStatusProps {
  /** what the shared hook (lib/pipeline-run) answers */
  readonly followed: FollowedRun;
  /** the screen's text for the run's state (spec 2's 'Pipeline status: …' by default) */
  readonly describe?: (run: PipelineRun) => string;
  /** the screen's text for a status read that failed */
  readonly describeError?: (message: string) => string;
  /** where the run lives, when known: offers 'View log' (ADR 042) */
  readonly logOf?: RunLogRef;
}

/**
 * One run's status (issue 10 §2, ADR 011): queued or running (notStarted, inProgress, canceling)
 * with a spinner; completed as success (succeeded), error (failed) or warning (canceled or any
 * other result, spec 2 §4); a failed status read as an error. Running and success are polite
 * status messages, the others alerts.
 */
export function PipelineRunStatus({
  followed,
  describe = describeRunDefault,
  describeError = describeReadErrorDefault,
  logOf,
}: PipelineRunStatusProps) {
  const styles = useStyles();
  const { run, error } = followed;
  const actions = logOf ? (
    <MessageBarActions>
      <RunLogButton run={logOf} />
    </MessageBarActions>
  ) : null;
  if (error !== undefined)
    return (
      <MessageBar intent="error" role="alert">
        <MessageBarBody>{describeError(error)}</MessageBarBody>
        {actions}
      </MessageBar>
    );
  if (!run) return null;
  const outcome = runOutcome(run);
  if (outcome === 'running')
    return (
      <MessageBar intent="info" role="status">
        <MessageBarBody>
          <Spinner size="extra-tiny" className={styles.spinner} aria-hidden />
          {describe(run)}
        </MessageBarBody>
        {actions}
      </MessageBar>
    );
  return (
    <MessageBar intent={outcome} role={outcome === 'success' ? 'status' : 'alert'}>
      <MessageBarBody>{describe(run)}</MessageBarBody>
      {actions}
    </MessageBar>
  );
}

export interface ProjectRunStatusProps extends Omit<PipelineRunStatusProps, 'followed' | 'logOf'> {
  /** the started run (its project, pipeline and id) */
  readonly started: ProjectRunRef;
  /** the screen's polling rule (spec 2 §4: onboarding and deploy, off-board; the pipeline cards) */
  readonly rule: RunPollingRule;
  /** told once, with the result, when the run has completed */
  readonly onFinished?: (result: string | null) => void;
}

/** A run of the projects API, followed under `rule` and shown by {@link PipelineRunStatus}. */
export function ProjectRunStatus({ started, rule, onFinished, ...texts }: ProjectRunStatusProps) {
  const followed = useProjectRun(started, rule);
  const { run } = followed;
  const finished = run?.state === 'completed' ? (run.result ?? null) : undefined;
  useEffect(() => {
    if (finished !== undefined) onFinished?.(finished);
  }, [finished, onFinished]);
  return <PipelineRunStatus followed={followed} logOf={started} {...texts} />;
}
