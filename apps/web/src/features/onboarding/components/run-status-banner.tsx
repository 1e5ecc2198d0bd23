import type { OnboardingRunResponse } from '@aegis/contracts';
import { pipelineStatusText, type RunPollingRule } from '@aegis/domain';
import { MessageBar, MessageBarBody, Spinner } from '@fluentui/react-components';
import { useEffect } from 'react';

import { useRunStatus } from '../hooks/use-run-status';

/**
 * Spec 2 §2, §4: the pipeline status banner: running, then success (succeeded), error (failed)
 * or warning (any other result).
 */
export function RunStatusBanner({
  started,
  rule,
  onFinished,
}: {
  started: OnboardingRunResponse;
  rule?: RunPollingRule;
  /** told once the run has completed */
  onFinished?: (result: string | null) => void;
}) {
  const { run, error } = useRunStatus(started, rule);
  const finished = run?.state === 'completed' ? (run.result ?? null) : undefined;
  useEffect(() => {
    if (finished !== undefined) onFinished?.(finished);
  }, [finished, onFinished]);
  if (error)
    return (
      <MessageBar intent="error" role="alert">
        <MessageBarBody>{error}</MessageBarBody>
      </MessageBar>
    );
  if (!run) return null;
  const text = pipelineStatusText(run.state, run.result);
  if (run.state !== 'completed')
    return (
      <MessageBar intent="info" role="status">
        <MessageBarBody>
          <Spinner size="extra-tiny" style={{ display: 'inline-flex', marginRight: 8 }} />
          {text}
        </MessageBarBody>
      </MessageBar>
    );
  const intent =
    run.result === 'succeeded' ? 'success' : run.result === 'failed' ? 'error' : 'warning';
  return (
    <MessageBar intent={intent} role={intent === 'success' ? 'status' : 'alert'}>
      <MessageBarBody>{text}</MessageBarBody>
    </MessageBar>
  );
}
