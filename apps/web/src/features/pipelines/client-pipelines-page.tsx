import type { Pipeline } from '@aegis/contracts';
import { Button, makeStyles } from '@fluentui/react-components';
import { PlayRegular } from '@fluentui/react-icons';

import { PageHeader } from '../../components/page-header';
import { RoleGate } from '../../components/role-gate';

import { useClientPipelines } from './api/pipelines';
import { PipelineCard } from './components/pipeline-card';
import { PipelineListState } from './components/pipeline-list-state';
import { RunMessage } from './components/run-message';
import { RunStatus } from './components/run-status';
import { usePipelineRun } from './hooks/use-pipeline-run';

const useStyles = makeStyles({
  grid: {
    display: 'grid',
    gridTemplateColumns: 'repeat(auto-fill, minmax(300px, 1fr))',
    gap: '12px',
  },
});

function ClientPipelineCard({ pipeline }: { pipeline: Pipeline }) {
  const { run, outcome, runId, starting } = usePipelineRun(pipeline.project, pipeline.id);
  return (
    <PipelineCard pipeline={pipeline}>
      <div>
        <RoleGate needs="Operator">
          <Button
            appearance="primary"
            icon={<PlayRegular />}
            disabled={starting}
            onClick={() => void run({})}
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
