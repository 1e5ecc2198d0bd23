import type { ProjectList } from '@aegis/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';

import { api } from '../../../lib/api-client';

const projectsQuery = queryOptions({
  queryKey: ['projects'],
  queryFn: ({ signal }) => api<ProjectList>('/api/projects', { signal }),
});

export function useProjects() {
  return useQuery(projectsQuery);
}
