import { Badge, Spinner } from '@fluentui/react-components';

import { useRunStatus } from '../api/pipelines';

/** The run's state and, once completed, its result (spec 1 §4). */
export function RunStatus({
  project,
  pipelineId,
  runId,
}: {
  project: string;
  pipelineId: number;
  runId: number;
}) {
  const run = useRunStatus(project, pipelineId, runId);
  if (run.isPending)
    return <Spinner size="extra-tiny" label={`Run #${runId}: reading status...`} />;
  if (run.isError) return <Badge color="danger">Run #{runId}: status unavailable</Badge>;
  const { state, result } = run.data;
  if (state !== 'completed') {
    return <Spinner size="extra-tiny" label={`Run #${runId}: ${state}`} labelPosition="after" />;
  }
  return (
    <Badge color={result === 'succeeded' ? 'success' : 'danger'} role="status">
      Run #{runId}: {state} - {result}
    </Badge>
  );
}
