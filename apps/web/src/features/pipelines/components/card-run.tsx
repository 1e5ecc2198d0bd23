import type { Pipeline, PipelineRun, StartRunBody } from '@aegis/contracts';
import { PIPELINE_CARD_RUN_POLLING } from '@aegis/domain';
import { Button, makeStyles } from '@fluentui/react-components';
import { PlayRegular } from '@fluentui/react-icons';
import { useState, type ReactNode } from 'react';

import { ProjectRunStatus } from '../../../components/pipeline-run-status';
import { RoleGate } from '../../../components/role-gate';
import { ApiError } from '../../../lib/api-client';
import type { ProjectRunRef } from '../../../lib/pipeline-run';
import { useStartRun } from '../api/pipelines';

import { RunMessage, type RunOutcome } from './run-message';

const useStyles = makeStyles({
  actions: { display: 'flex', alignItems: 'flex-end', gap: '8px' },
});

const describeRun = (run: PipelineRun): string =>
  run.state === 'completed'
    ? `Run #${run.id}: ${run.state} - ${run.result ?? ''}`
    : `Run #${run.id}: ${run.state}`;

/**
 * A pipeline card's Run Pipeline (spec 1 §2, §8): starts a run with `body` (disabled while there
 * is none), says whether it started, then follows the run every 2 s until it completes.
 */
export function CardRun({
  pipeline,
  body,
  children,
}: {
  pipeline: Pipeline;
  /** the run's body; undefined while the card lacks a choice (Run Pipeline disabled) */
  body: StartRunBody | undefined;
  /** the card's own inputs, before the button */
  children?: ReactNode;
}) {
  const styles = useStyles();
  const startRun = useStartRun();
  const [outcome, setOutcome] = useState<RunOutcome>();
  const [started, setStarted] = useState<ProjectRunRef>();

  async function run(runBody: StartRunBody): Promise<void> {
    setOutcome(undefined);
    try {
      const answer = await startRun.mutateAsync({
        project: pipeline.project,
        pipelineId: pipeline.id,
        body: runBody,
      });
      setStarted({ project: pipeline.project, pipelineId: pipeline.id, ...answer });
      setOutcome('success');
    } catch (error) {
      setOutcome(error instanceof ApiError && error.status === 401 ? 'signed-out' : 'error');
    }
  }

  return (
    <>
      <div className={styles.actions}>
        {children}
        <RoleGate needs="Operator">
          <Button
            appearance="primary"
            icon={<PlayRegular />}
            disabled={!body || startRun.isPending}
            onClick={() => body && void run(body)}
          >
            Run Pipeline
          </Button>
        </RoleGate>
      </div>
      <RunMessage status={outcome} />
      {started && (
        <ProjectRunStatus
          key={started.id}
          started={started}
          rule={PIPELINE_CARD_RUN_POLLING}
          describe={describeRun}
          describeError={(message) => `Run #${started.id}: status unavailable - ${message}`}
        />
      )}
    </>
  );
}
