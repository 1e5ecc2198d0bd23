import type { PipelineList, PipelineRun, StartRunBody } from '@aegis/contracts';
import { queryOptions, useMutation, useQuery } from '@tanstack/react-query';

import { api } from '../../../lib/api-client';

function projectPipelinesQuery(projectId: string) {
  return queryOptions({
    queryKey: ['projects', projectId, 'pipelines'],
    queryFn: ({ signal }) =>
      api<PipelineList>(`/api/projects/${encodeURIComponent(projectId)}/pipelines`, { signal }),
  });
}

const clientPipelinesQuery = queryOptions({
  queryKey: ['client-pipelines'],
  queryFn: ({ signal }) => api<PipelineList>('/api/pipelines', { signal }),
});

export function useProjectPipelines(projectId: string) {
  return useQuery(projectPipelinesQuery(projectId));
}

export function useClientPipelines() {
  return useQuery(clientPipelinesQuery);
}

export interface StartRunInput {
  readonly project: string;
  readonly pipelineId: number;
  readonly body: StartRunBody;
}

export function useStartRun() {
  return useMutation({
    mutationFn: ({ project, pipelineId, body }: StartRunInput) =>
      api<PipelineRun>(
        `/api/projects/${encodeURIComponent(project)}/pipelines/${pipelineId}/runs`,
        {
          method: 'POST',
          body,
        },
      ),
  });
}
