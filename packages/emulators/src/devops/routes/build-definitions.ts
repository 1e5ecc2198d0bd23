// Build definitions (same id space as pipelines) and build folders: a read-only slice.
import type { FastifyInstance, FastifyRequest } from 'fastify';

import type { DevOpsState, PipelineRecord, ProjectRecord } from '../state';

import {
  DEFAULT_PAGE_SIZES,
  DevOpsError,
  callerIdentity,
  identityRef,
  intParam,
  pageByContinuation,
  projectReference,
  projectUrl,
  queryParam,
  requireProject,
  wrap,
  type Query,
} from './common';
import type { ProjectParams } from './pipeline-shapes';

export function registerBuildDefinitionRoutes(app: FastifyInstance, state: DevOpsState): void {
  // Build definitions (same id space as pipelines): enough for folder/name lookups and the YAML path.
  const definitionJson = (
    request: FastifyRequest,
    project: ProjectRecord,
    p: PipelineRecord,
    full: boolean,
  ) => {
    const base = projectUrl(request, state, project);
    const url = `${base}/_apis/build/Definitions/${p.id}?revision=${p.revision}`;
    const repo = state.data.repositories.find((r) => r.id === p.repositoryId);
    return {
      _links: {
        self: { href: url },
        web: { href: `${base}/_build/definition?definitionId=${p.id}` },
      },
      id: p.id,
      name: p.name,
      path: p.folder,
      revision: p.revision,
      url,
      uri: `vstfs:///Build/Definition/${p.id}`,
      type: 'build',
      quality: 'definition',
      queueStatus: 'enabled',
      authoredBy: identityRef(request, state, callerIdentity(request)),
      project: projectReference(request, state, project),
      ...(full
        ? {
            process: { yamlFilename: p.yamlPath ?? '/azure-pipelines.yml', type: 2 },
            repository: repo
              ? {
                  id: repo.id,
                  name: repo.name,
                  type: 'TfsGit',
                  url: `${base}/_git/${encodeURIComponent(repo.name)}`,
                  defaultBranch: 'refs/heads/main',
                  clean: null,
                  checkoutSubmodules: false,
                  properties: { reportBuildStatus: 'true' },
                }
              : undefined,
            triggers: [],
            variables: {},
            queue: {
              id: 9,
              name: 'Azure Pipelines',
              pool: { id: 9, name: 'Azure Pipelines', isHosted: true },
            },
            jobAuthorizationScope: 'projectCollection',
          }
        : {}),
    };
  };

  app.get<{ Params: ProjectParams }>(
    '/:org/:project/_apis/build/definitions',
    async (request, reply) => {
      const project = requireProject(state, request.params.project);
      const query = request.query as Query;
      const folder = queryParam(query, 'path');
      const name = queryParam(query, 'name');
      const ids = queryParam(query, 'definitionIds')?.split(',').map(Number);
      const namePattern = name
        ? new RegExp(`^${name.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*')}$`, 'i')
        : undefined;
      const normalisedFolder = folder?.replace(/\//g, '\\').replace(/\\+$/, '').toLowerCase();
      const list = state.data.pipelines
        .filter((p) => p.projectId === project.id)
        .filter((p) => !ids || ids.includes(p.id))
        .filter((p) => !namePattern || namePattern.test(p.name))
        .filter((p) => {
          if (!normalisedFolder) return true;
          const f = p.folder.toLowerCase();
          return f === normalisedFolder || f.startsWith(`${normalisedFolder}\\`);
        })
        .sort((a, b) => a.name.localeCompare(b.name));
      const page = pageByContinuation(
        reply,
        list,
        intParam(query, '$top'),
        queryParam(query, 'continuationToken'),
        state.defaultPageSize ?? DEFAULT_PAGE_SIZES.buildDefinitions,
      );
      const full = (queryParam(query, 'includeAllProperties') ?? '').toLowerCase() === 'true';
      return wrap(page.map((p) => definitionJson(request, project, p, full)));
    },
  );

  // Folders - List: the folders of the build definitions (and their ancestors, root included),
  // the given folder and everything below it, ordered as asked (queryOrder).
  const folders = (request: FastifyRequest<{ Params: ProjectParams & { '*'?: string } }>) => {
    const project = requireProject(state, request.params.project);
    const query = request.query as Query;
    const raw = request.params['*'] ?? queryParam(query, 'path') ?? '';
    const wanted = `\\${raw.replace(/\//g, '\\').replace(/^\\+|\\+$/g, '')}`.toLowerCase();
    const all = new Set<string>(['\\']);
    for (const pipeline of state.data.pipelines.filter((p) => p.projectId === project.id)) {
      const parts = pipeline.folder.split('\\').filter(Boolean);
      for (let i = 1; i <= parts.length; i++) all.add(`\\${parts.slice(0, i).join('\\')}`);
    }
    const matching = [...all].filter((folder) => {
      const f = folder.toLowerCase();
      return wanted === '\\' || f === wanted || f.startsWith(`${wanted}\\`);
    });
    const order = (queryParam(query, 'queryOrder') ?? 'none').toLowerCase();
    matching.sort((a, b) => a.localeCompare(b));
    if (order === 'folderdescending' || order === '2') matching.reverse();
    const creator = identityRef(request, state, callerIdentity(request));
    return wrap(
      matching.map((path) => ({
        path,
        description: '',
        createdBy: creator,
        createdOn: project.lastUpdateTime,
        project: projectReference(request, state, project),
      })),
    );
  };
  app.get('/:org/:project/_apis/build/folders', folders);
  app.get('/:org/:project/_apis/build/folders/*', folders);

  app.get<{ Params: ProjectParams & { definitionId: string } }>(
    '/:org/:project/_apis/build/definitions/:definitionId',
    (request) => {
      const project = requireProject(state, request.params.project);
      const pipeline = state.findPipeline(project, Number(request.params.definitionId));
      if (!pipeline) {
        throw new DevOpsError(
          404,
          'DefinitionNotFoundException',
          `The requested build definition ${request.params.definitionId} could not be found.`,
          'Microsoft.TeamFoundation.Build.WebApi.DefinitionNotFoundException, Microsoft.TeamFoundation.Build2.WebApi',
        );
      }
      return definitionJson(request, project, pipeline, true);
    },
  );
}
