import type { Pipeline } from '@aegis/contracts';
import { DEPLOYABLE_APPS } from '@aegis/domain';
import { Field, makeStyles, Select } from '@fluentui/react-components';
import { useState } from 'react';
import { useParams } from 'react-router';

import { PageHeader } from '../../components/page-header';

import { useProjectPipelines } from './api/pipelines';
import { CardRun } from './components/card-run';
import { PipelineCard } from './components/pipeline-card';
import { PipelineListState } from './components/pipeline-list-state';

const useStyles = makeStyles({
  grid: {
    display: 'grid',
    gridTemplateColumns: 'repeat(auto-fill, minmax(320px, 1fr))',
    gap: '12px',
  },
});

function AppPipelineCard({ pipeline }: { pipeline: Pipeline }) {
  const [app, setApp] = useState('');
  return (
    <PipelineCard pipeline={pipeline}>
      <CardRun pipeline={pipeline} body={app ? { appList: [app] } : undefined}>
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
      </CardRun>
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
