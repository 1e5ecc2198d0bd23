import type { Pipeline } from '@aegis/contracts';
import { DEPLOYABLE_APPS } from '@aegis/domain';
import { Button, Field, makeStyles, Select } from '@fluentui/react-components';
import { PlayRegular } from '@fluentui/react-icons';
import { useState } from 'react';
import { useParams } from 'react-router';

import { PageHeader } from '../../components/page-header';
import { RoleGate } from '../../components/role-gate';

import { useProjectPipelines } from './api/pipelines';
import { PipelineCard } from './components/pipeline-card';
import { PipelineListState } from './components/pipeline-list-state';
import { RunMessage } from './components/run-message';
import { RunStatus } from './components/run-status';
import { usePipelineRun } from './hooks/use-pipeline-run';

const useStyles = makeStyles({
  grid: {
    display: 'grid',
    gridTemplateColumns: 'repeat(auto-fill, minmax(320px, 1fr))',
    gap: '12px',
  },
  actions: { display: 'flex', alignItems: 'flex-end', gap: '8px' },
});

function AppPipelineCard({ pipeline }: { pipeline: Pipeline }) {
  const styles = useStyles();
  const [app, setApp] = useState('');
  const { run, outcome, runId, starting } = usePipelineRun(pipeline.project, pipeline.id);
  return (
    <PipelineCard pipeline={pipeline}>
      <div className={styles.actions}>
        <Field label="Application">
          <Select value={app} onChange={(_event, data) => setApp(data.value)}>
            <option value="" disabled>
              Please select an app
            </option>
            {DEPLOYABLE_APPS.map((name) => (
              <option key={name} value={name}>
                {name}
              </option>
            ))}
          </Select>
        </Field>
        <RoleGate needs="Operator">
          <Button
            appearance="primary"
            icon={<PlayRegular />}
            disabled={!app || starting}
            onClick={() => void run({ appList: [app] })}
          >
            Run Pipeline
          </Button>
        </RoleGate>
      </div>
      <RunMessage status={outcome} />
      {runId !== undefined && (
        <RunStatus project={pipeline.project} pipelineId={pipeline.id} runId={runId} />
      )}
    </PipelineCard>
  );
}

/** The pipelines of one project, each with an application to deploy (spec 1 §2). */
export function AssociatedPipelinesPage() {
  const styles = useStyles();
  const { projectName = '', projectId = '' } = useParams();
  const pipelines = useProjectPipelines(projectId);
  const list = pipelines.data?.pipelines ?? [];
  return (
    <>
      <PageHeader
        title={`${projectName} Pipelines`}
        subtitle={`Client pipelines of ${projectName}`}
      />
      <PipelineListState query={pipelines} count={list.length} />
      <div className={styles.grid}>
        {list.map((pipeline) => (
          <AppPipelineCard key={pipeline.id} pipeline={pipeline} />
        ))}
      </div>
    </>
  );
}
