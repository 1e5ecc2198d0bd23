// Pipelines area (list, create, get; runs in pipeline-runs.ts) and the registrar of the Pipelines
// and Build resources (§4): one module per resource.
import type { FastifyInstance } from 'fastify';

import type { PipelineRunner } from '../pipeline-runner';
import type { DevOpsState, PipelineRecord } from '../state';

import { registerBuildDefinitionRoutes } from './build-definitions';
import { registerBuildRoutes } from './builds';
import {
  DEFAULT_PAGE_SIZES,
  DevOpsError,
  intParam,
  pageByContinuation,
  queryParam,
  requireProject,
  wrap,
  type Query,
} from './common';
import { registerPipelineRunRoutes } from './pipeline-runs';
import { pipelineShapes, type PipelineParams, type ProjectParams } from './pipeline-shapes';

/** Pipelines, their runs and logs, builds, build definitions and folders. */
export function registerPipelineRoutes(
  app: FastifyInstance,
  state: DevOpsState,
  runner: PipelineRunner,
): void {
  registerPipelineResourceRoutes(app, state);
  registerPipelineRunRoutes(app, state, runner);
  registerBuildRoutes(app, state);
  registerBuildDefinitionRoutes(app, state);
}

function registerPipelineResourceRoutes(app: FastifyInstance, state: DevOpsState): void {
  const { pipelineRef, requirePipeline } = pipelineShapes(state);

  app.get<{ Params: ProjectParams }>('/:org/:project/_apis/pipelines', async (request, reply) => {
    const project = requireProject(state, request.params.project);
    const query = request.query as Query;
    const orderBy = (queryParam(query, 'orderBy') ?? 'name asc').toLowerCase();
    const list = state.data.pipelines
      .filter((p) => p.projectId === project.id)
      .sort((a, b) => {
        const byName = a.name.localeCompare(b.name);
        if (orderBy.startsWith('id')) return a.id - b.id;
        return orderBy.endsWith('desc') ? -byName : byName;
      });
    const page = pageByContinuation(
      reply,
      list,
      intParam(query, '$top'),
      queryParam(query, 'continuationToken'),
      state.defaultPageSize ?? DEFAULT_PAGE_SIZES.pipelines,
    );
    return wrap(page.map((p) => pipelineRef(request, project, p)));
  });

  // Pipelines - Create: a YAML pipeline in a folder, pointing at a file of an Azure Repos repository.
  app.post<{
    Params: ProjectParams;
    Body:
      | {
          name?: unknown;
          folder?: unknown;
          configuration?: { type?: unknown; path?: unknown; repository?: { id?: unknown } };
        }
      | undefined;
  }>('/:org/:project/_apis/pipelines', (request) => {
    const project = requireProject(state, request.params.project);
    const body = request.body ?? {};
    const name = typeof body.name === 'string' ? body.name.trim() : '';
    const folder = typeof body.folder === 'string' && body.folder ? body.folder : '\\';
    const config = body.configuration;
    const repositoryId = typeof config?.repository?.id === 'string' ? config.repository.id : '';
    if (!name || config?.type !== 'yaml' || typeof config.path !== 'string' || !repositoryId) {
      throw new DevOpsError(
        400,
        'InvalidRequestException',
        'A pipeline needs a name and a yaml configuration with a path and a repository.',
      );
    }
    const repository = state.findRepository(project, repositoryId);
    if (!repository) {
      throw new DevOpsError(
        404,
        'GitRepositoryNotFoundException',
        `TF401019: The Git repository with name or identifier ${repositoryId} does not exist or you do not have permissions for the operation you are attempting.`,
      );
    }
    const normalisedFolder = `\\${folder.replace(/\//g, '\\').replace(/^\\+|\\+$/g, '')}`;
    const duplicate = state.data.pipelines.find(
      (p) =>
        p.projectId === project.id &&
        p.folder.toLowerCase() === normalisedFolder.toLowerCase() &&
        p.name.toLowerCase() === name.toLowerCase(),
    );
    if (duplicate) {
      throw new DevOpsError(
        409,
        'DefinitionExistsException',
        `The pipeline '${name}' already exists in folder '${normalisedFolder}'.`,
        'Microsoft.TeamFoundation.Build.WebApi.DefinitionExistsException, Microsoft.TeamFoundation.Build2.WebApi',
      );
    }
    const pipeline: PipelineRecord = {
      id: Math.max(0, ...state.data.pipelines.map((p) => p.id)) + 1,
      name,
      folder: normalisedFolder,
      projectId: project.id,
      revision: 1,
      repositoryId: repository.id,
      yamlPath: config.path.startsWith('/') ? config.path : `/${config.path}`,
    };
    state.data.pipelines.push(pipeline);
    state.save();
    return pipelineRef(request, project, pipeline);
  });

  app.get<{ Params: PipelineParams }>('/:org/:project/_apis/pipelines/:pipelineId', (request) => {
    const project = requireProject(state, request.params.project);
    const pipeline = requirePipeline(project, request.params.pipelineId);
    return {
      ...pipelineRef(request, project, pipeline),
      configuration: {
        type: 'yaml',
        ...(pipeline.yamlPath ? { path: pipeline.yamlPath } : {}),
        ...(pipeline.repositoryId
          ? { repository: { id: pipeline.repositoryId, type: 'azureReposGit' } }
          : {}),
      },
    };
  });
}
