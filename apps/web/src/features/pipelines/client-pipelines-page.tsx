import type { Pipeline } from '@aegis/contracts';
import { makeStyles } from '@fluentui/react-components';

import { PageHeader } from '../../components/page-header';

import { useClientPipelines } from './api/pipelines';
import { CardRun } from './components/card-run';
import { PipelineCard } from './components/pipeline-card';
import { PipelineListState } from './components/pipeline-list-state';

const useStyles = makeStyles({
  grid: {
    display: 'grid',
    gridTemplateColumns: 'repeat(auto-fill, minmax(300px, 1fr))',
    gap: '12px',
  },
});

function ClientPipelineCard({ pipeline }: { pipeline: Pipeline }) {
  return (
    <PipelineCard pipeline={pipeline}>
      <CardRun pipeline={pipeline} body={{}} />
    </PipelineCard>
  );
}

/** One card per client pipeline across the organisation (spec 1 §2). */
export function ClientPipelinesPage() {
  const styles = useStyles();
  const pipelines = useClientPipelines();
  const list = pipelines.data?.pipelines ?? [];
  return (
    <>
      <PageHeader
        title="Client Pipelines"
        subtitle="Pipelines in client folders across all projects"
      />
      <PipelineListState query={pipelines} count={list.length} />
      <div className={styles.grid}>
        {list.map((pipeline) => (
          <ClientPipelineCard key={`${pipeline.project}/${pipeline.id}`} pipeline={pipeline} />
        ))}
      </div>
    </>
  );
}
