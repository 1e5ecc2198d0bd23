// Core area: projects, plus the location discovery the official Node client performs (reference §2).
import type { FastifyInstance } from 'fastify';

import type { DevOpsState } from '../state';

import {
  API_VERSION,
  DEFAULT_PAGE_SIZES,
  MAX_RESOURCE_VERSION,
  intParam,
  projectReference,
  queryParam,
  requireProject,
  wrap,
  type Query,
} from './common';

interface Location {
  id: string;
  area: string;
  resourceName: string;
  routeTemplate: string;
}

const LOCATIONS: Location[] = [
  {
    id: 'e81700f7-3be2-46de-8624-2eb35882fcaa',
    area: 'Location',
    resourceName: 'ResourceAreas',
    routeTemplate: '_apis/{resource}/{areaId}',
  },
  {
    id: '603fe2ac-9723-48b9-88ad-09305aa6c6e1',
    area: 'core',
    resourceName: 'projects',
    routeTemplate: '_apis/{resource}/{*projectId}',
  },
  {
    id: '28e1305e-2afe-47bf-abaf-cbb0e6a91988',
    area: 'pipelines',
    resourceName: 'pipelines',
    routeTemplate: '{project}/_apis/{area}/{pipelineId}',
  },
  {
    id: '7859261e-d2e9-4a68-b820-a5d84cc5bb3d',
    area: 'pipelines',
    resourceName: 'runs',
    routeTemplate: '{project}/_apis/{area}/{pipelineId}/{resource}/{runId}',
  },
  {
    id: 'dbeaf647-6167-421a-bda9-c9327b25e2e6',
    area: 'build',
    resourceName: 'Definitions',
    routeTemplate: '{project}/_apis/build/{resource}/{definitionId}',
  },
  {
    id: 'a906531b-d2da-4f55-bda7-f3e676cc50d9',
    area: 'build',
    resourceName: 'Folders',
    routeTemplate: '{project}/_apis/build/{resource}/{*path}',
  },
  {
    id: '225f7195-f9c7-4d14-ab28-a83f7ff77e1f',
    area: 'git',
    resourceName: 'repositories',
    routeTemplate: '{project}/_apis/{area}/{resource}/{repositoryId}',
  },
  {
    id: 'fb93c0db-47ed-4a31-8c20-47552878fb44',
    area: 'git',
    resourceName: 'items',
    routeTemplate: '{project}/_apis/{area}/repositories/{repositoryId}/{resource}/{*path}',
  },
  {
    id: '2d874a60-a811-4f62-9c9f-963a6ea0a55b',
    area: 'git',
    resourceName: 'refs',
    routeTemplate: '{project}/_apis/{area}/repositories/{repositoryId}/{resource}/{*filter}',
  },
  {
    id: '5e8a8081-3851-4626-b677-9891cc04102e',
    area: 'git',
    resourceName: 'annotatedTags',
    routeTemplate: '{project}/_apis/{area}/repositories/{repositoryId}/{resource}/{objectId}',
  },
  {
    id: 'ea98d07b-3c87-4971-8ede-a613694ffb55',
    area: 'git',
    resourceName: 'pushes',
    routeTemplate: '{project}/_apis/{area}/repositories/{repositoryId}/{resource}/{pushId}',
  },
  {
    id: '615588d5-c0c7-4b88-88f8-e625306446e8',
    area: 'git',
    resourceName: 'commitDiffs',
    routeTemplate: '{project}/_apis/{area}/repositories/{repositoryId}/diffs/commits',
  },
  {
    id: 'c2570c3b-5b3f-41b8-98bf-5407bfde8d58',
    area: 'git',
    resourceName: 'commits',
    routeTemplate: '{project}/_apis/{area}/repositories/{repositoryId}/{resource}/{commitId}',
  },
  {
    id: '9946fd70-0d40-406e-b686-b4744cbbcc37',
    area: 'git',
    resourceName: 'pullRequests',
    routeTemplate: '{project}/_apis/{area}/repositories/{repositoryId}/{resource}/{pullRequestId}',
  },
  {
    id: 'a5d28130-9cd2-40fa-9f08-902e7daa9efb',
    area: 'git',
    resourceName: 'pullRequests',
    routeTemplate: '{project}/_apis/{area}/{resource}',
  },
  {
    id: '01a46dea-7d46-4d40-bc84-319e7c260d99',
    area: 'git',
    resourceName: 'pullRequests',
    routeTemplate: '{project}/_apis/{area}/{resource}/{pullRequestId}',
  },
];

export function registerCoreRoutes(app: FastifyInstance, state: DevOpsState): void {
  const locations = (area?: string) => {
    const value = LOCATIONS.filter(
      (l) =>
        !area || area.toLowerCase() === 'location' || l.area.toLowerCase() === area.toLowerCase(),
    ).map((l) => ({
      ...l,
      resourceVersion: MAX_RESOURCE_VERSION,
      minVersion: '1.0',
      maxVersion: API_VERSION,
      releasedVersion: API_VERSION,
    }));
    return wrap(value);
  };
  app.options('/:org/_apis', () => locations());
  app.options<{ Params: { area: string } }>('/:org/_apis/:area', (request) =>
    locations(request.params.area),
  );
  // An empty list makes the Node client use the base URL for every area (reference §2 step 2).
  app.get('/:org/_apis/ResourceAreas', () => ({ count: 0, value: [] }));

  app.get('/:org/_apis/projects', async (request, reply) => {
    const query = request.query as Query;
    const stateFilter = (queryParam(query, 'stateFilter') ?? 'wellFormed').toLowerCase();
    const all = [...state.data.projects].sort((a, b) => a.name.localeCompare(b.name));
    const filtered = ['wellformed', 'all', 'unchanged'].includes(stateFilter) ? all : [];
    const skip = intParam(query, '$skip') ?? 0;
    // continuationToken is an integer here: how many projects were already fetched (§3.1).
    const fetched = intParam(query, 'continuationToken') ?? 0;
    const top = intParam(query, '$top') ?? state.defaultPageSize ?? DEFAULT_PAGE_SIZES.projects;
    const offset = skip + fetched;
    const page = filtered.slice(offset, top === undefined ? undefined : offset + top);
    if (top !== undefined && offset + top < filtered.length) {
      reply.header('x-ms-continuationtoken', String(offset + top));
    }
    return wrap(page.map((p) => projectReference(request, state, p)));
  });

  app.get<{ Params: { projectId: string } }>('/:org/_apis/projects/:projectId', (request) => {
    const project = requireProject(state, request.params.projectId);
    return {
      ...projectReference(request, state, project),
      _links: {
        self: { href: projectReference(request, state, project).url },
      },
      defaultTeam: {
        id: project.id.replace(/^.{8}/, 'a0000000'),
        name: `${project.name} Team`,
      },
    };
  });
}
