// Pipelines area (list, get, run, get run) and a read-only slice of Build definitions (§4).
import type { FastifyInstance, FastifyRequest } from 'fastify';

import type { PipelineRunner } from '../pipeline-runner';
import type { DevOpsState, PipelineRecord, ProjectRecord, RunRecord } from '../state';

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

interface ProjectParams {
  project: string;
}
interface PipelineParams extends ProjectParams {
  pipelineId: string;
}
interface RunParams extends PipelineParams {
  runId: string;
}

interface RunPipelineBody {
  resources?: {
    repositories?: Record<string, { refName?: string; version?: string } | undefined>;
  };
  templateParameters?: Record<string, unknown>;
  variables?: Record<string, { value?: unknown; isSecret?: boolean } | undefined>;
  stagesToSkip?: unknown;
  previewRun?: boolean;
}

/** A new run of a pipeline, named '{yyyymmdd}.{n}' as the service names them (not yet queued). */
export function newRunRecord(
  state: DevOpsState,
  runner: PipelineRunner,
  pipeline: PipelineRecord,
  fields: Pick<
    RunRecord,
    | 'refName'
    | 'sourceVersion'
    | 'templateParameters'
    | 'variables'
    | 'stagesToSkip'
    | 'requestedBy'
  >,
): RunRecord {
  const now = runner.now();
  const day = now.toISOString().slice(0, 10).replace(/-/g, '');
  const sameDay = state.data.runs.filter(
    (r) => r.pipelineId === pipeline.id && r.name.startsWith(`${day}.`),
  ).length;
  return {
    id: state.data.nextRunId++,
    pipelineId: pipeline.id,
    name: `${day}.${sameDay + 1}`,
    state: 'notStarted',
    createdDate: now.toISOString(),
    ...fields,
    log: [],
  };
}

/** Stores a run and starts executing it (manual and scheduled runs alike). */
export function queueRun(
  state: DevOpsState,
  runner: PipelineRunner,
  run: RunRecord,
  pipeline: PipelineRecord,
  project: ProjectRecord,
): void {
  runner.holdSecrets(run);
  state.data.runs.push(run);
  state.save();
  runner.start(run, pipeline, project);
}

export function registerPipelineRoutes(
  app: FastifyInstance,
  state: DevOpsState,
  runner: PipelineRunner,
): void {
  const pipelineRef = (request: FastifyRequest, project: ProjectRecord, p: PipelineRecord) => {
    const url = `${projectUrl(request, state, project)}/_apis/pipelines/${p.id}?revision=${p.revision}`;
    return {
      _links: {
        self: { href: url },
        web: {
          href: `${projectUrl(request, state, project)}/_build/definition?definitionId=${p.id}`,
        },
      },
      url,
      id: p.id,
      revision: p.revision,
      name: p.name,
      folder: p.folder,
    };
  };

  const requirePipeline = (project: ProjectRecord, rawId: string): PipelineRecord => {
    const pipeline = state.findPipeline(project, Number(rawId));
    if (!pipeline) {
      throw new DevOpsError(
        404,
        'PipelineNotFoundException',
        `Pipeline with ID ${rawId} not found in project ${project.name}.`,
        'Microsoft.Azure.Pipelines.WebApi.PipelineNotFoundException, Microsoft.Azure.Pipelines.WebApi',
      );
    }
    return pipeline;
  };

  const runJson = (
    request: FastifyRequest,
    project: ProjectRecord,
    pipeline: PipelineRecord,
    run: RunRecord,
  ) => {
    const base = projectUrl(request, state, project);
    const url = `${base}/_apis/pipelines/${pipeline.id}/runs/${run.id}`;
    return {
      _links: {
        self: { href: url },
        web: { href: `${base}/_build/results?buildId=${run.id}` },
        'pipeline.web': { href: `${base}/_build/definition?definitionId=${pipeline.id}` },
        pipeline: { href: pipelineRef(request, project, pipeline).url },
      },
      templateParameters: run.templateParameters,
      pipeline: (({ _links: _ignored, ...rest }) => rest)(pipelineRef(request, project, pipeline)),
      state: run.state,
      ...(run.result ? { result: run.result } : {}),
      createdDate: run.createdDate,
      ...(run.finishedDate ? { finishedDate: run.finishedDate } : {}),
      url,
      resources: {
        repositories: {
          self: {
            repository: {
              id: pipeline.repositoryId,
              type: 'azureReposGit',
            },
            refName: run.refName,
            ...(run.sourceVersion ? { version: run.sourceVersion } : {}),
          },
        },
      },
      variables: Object.fromEntries(
        Object.entries(run.variables).map(([name, v]) => [
          name,
          v.isSecret ? { isSecret: true } : { value: v.value },
        ]),
      ),
      id: run.id,
      name: run.name,
    };
  };

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
  }>('/:org/:project/_apis/pipelines', async (request) => {
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

  app.get<{ Params: PipelineParams }>(
    '/:org/:project/_apis/pipelines/:pipelineId',
    async (request) => {
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
    },
  );

  app.post<{ Params: PipelineParams; Body: RunPipelineBody | undefined }>(
    '/:org/:project/_apis/pipelines/:pipelineId/runs',
    async (request) => {
      const project = requireProject(state, request.params.project);
      const pipeline = requirePipeline(project, request.params.pipelineId);
      const body = request.body ?? {};
      const templateParameters: Record<string, string> = {};
      for (const [name, value] of Object.entries(body.templateParameters ?? {})) {
        templateParameters[name] = typeof value === 'string' ? value : JSON.stringify(value);
      }
      const variables: RunRecord['variables'] = {};
      for (const [name, variable] of Object.entries(body.variables ?? {})) {
        if (!variable || variable.value === undefined) {
          throw new DevOpsError(
            400,
            'PipelineValidationException',
            `The variable '${name}' has no value.`,
            'Microsoft.Azure.Pipelines.WebApi.PipelineValidationException, Microsoft.Azure.Pipelines.WebApi',
          );
        }
        variables[name] = { value: String(variable.value), isSecret: variable.isSecret === true };
      }
      if (body.stagesToSkip !== undefined && !Array.isArray(body.stagesToSkip)) {
        throw new DevOpsError(
          400,
          'InvalidRequestException',
          'stagesToSkip must be an array of stage names.',
        );
      }
      const self = body.resources?.repositories?.['self'];
      const refName = self?.refName ?? 'refs/heads/main';
      let sourceVersion = self?.version;
      if (pipeline.repositoryId && !sourceVersion) {
        const git = state.git(pipeline.repositoryId);
        sourceVersion = await git.revParse(`${refName}^{commit}`);
        if (!sourceVersion) {
          throw new DevOpsError(
            400,
            'PipelineValidationException',
            `Unable to resolve the reference '${refName}' to a specific version. Verify the reference exists in the source repository.`,
            'Microsoft.Azure.Pipelines.WebApi.PipelineValidationException, Microsoft.Azure.Pipelines.WebApi',
          );
        }
      }
      const run = newRunRecord(state, runner, pipeline, {
        refName,
        ...(sourceVersion ? { sourceVersion } : {}),
        templateParameters,
        variables,
        stagesToSkip: (body.stagesToSkip as unknown[] | undefined)?.map(String) ?? [],
        requestedBy: callerIdentity(request),
      });
      if (body.previewRun) {
        return { ...runJson(request, project, pipeline, run), finalYaml: `# ${pipeline.name}\n` };
      }
      queueRun(state, runner, run, pipeline, project);
      return runJson(request, project, pipeline, run);
    },
  );

  app.get<{ Params: PipelineParams }>(
    '/:org/:project/_apis/pipelines/:pipelineId/runs',
    async (request) => {
      const project = requireProject(state, request.params.project);
      const pipeline = requirePipeline(project, request.params.pipelineId);
      const runs = state.data.runs
        .filter((r) => r.pipelineId === pipeline.id)
        .sort((a, b) => b.id - a.id)
        .slice(0, 10000);
      return wrap(runs.map((r) => runJson(request, project, pipeline, r)));
    },
  );

  app.get<{ Params: RunParams }>(
    '/:org/:project/_apis/pipelines/:pipelineId/runs/:runId',
    async (request) => {
      const project = requireProject(state, request.params.project);
      const pipeline = requirePipeline(project, request.params.pipelineId);
      const run = state.data.runs.find(
        (r) => r.pipelineId === pipeline.id && r.id === Number(request.params.runId),
      );
      if (!run) {
        throw new DevOpsError(
          404,
          'PipelineRunNotFoundException',
          `Pipeline run ${request.params.runId} not found in pipeline ${pipeline.id}.`,
        );
      }
      return runJson(request, project, pipeline, run);
    },
  );

  // Logs: one log per run (the job's output). Build - Get Build Logs / Get Build Log (text), and
  // Pipelines - Runs - Logs (list, and one log with a signed content URL).
  const findRun = (project: ProjectRecord, runId: string): RunRecord => {
    const run = state.data.runs.find(
      (r) =>
        r.id === Number(runId) &&
        state.data.pipelines.some((p) => p.id === r.pipelineId && p.projectId === project.id),
    );
    if (!run) {
      throw new DevOpsError(
        404,
        'BuildNotFoundException',
        `The requested build ${runId} could not be found.`,
        'Microsoft.TeamFoundation.Build.WebApi.BuildNotFoundException, Microsoft.TeamFoundation.Build2.WebApi',
      );
    }
    return run;
  };
  const LOG_ID = 1;
  const requireLog = (logId: string) => {
    if (Number(logId) !== LOG_ID) {
      throw new DevOpsError(404, 'LogNotFoundException', `Log ${logId} was not found.`);
    }
  };
  const logTimes = (run: RunRecord) => ({
    createdOn: run.createdDate,
    lastChangedOn: run.finishedDate ?? run.log.at(-1)?.slice(0, 24) ?? run.createdDate,
  });

  // Build - Get: the run as the Build API records it, with who requested it (requestedBy) and for
  // whom (requestedFor); the Pipelines API's run has neither.
  app.get<{ Params: ProjectParams & { buildId: string } }>(
    '/:org/:project/_apis/build/builds/:buildId',
    async (request) => {
      const project = requireProject(state, request.params.project);
      const run = findRun(project, request.params.buildId);
      const pipeline = state.data.pipelines.find((p) => p.id === run.pipelineId);
      const base = projectUrl(request, state, project);
      const statusOf = {
        notStarted: 'notStarted',
        inProgress: 'inProgress',
        completed: 'completed',
      };
      return {
        _links: {
          self: { href: `${base}/_apis/build/Builds/${run.id}` },
          web: { href: `${base}/_build/results?buildId=${run.id}` },
        },
        id: run.id,
        buildNumber: run.name,
        status: statusOf[run.state],
        ...(run.result ? { result: run.result } : {}),
        queueTime: run.createdDate,
        ...(run.finishedDate ? { finishTime: run.finishedDate } : {}),
        url: `${base}/_apis/build/Builds/${run.id}`,
        definition: {
          id: run.pipelineId,
          name: pipeline?.name ?? '',
          path: pipeline?.folder ?? '\\',
          type: 'build',
          queueStatus: 'enabled',
          revision: pipeline?.revision ?? 1,
          project: projectReference(request, state, project),
        },
        project: projectReference(request, state, project),
        sourceBranch: run.refName,
        ...(run.sourceVersion ? { sourceVersion: run.sourceVersion } : {}),
        templateParameters: run.templateParameters,
        ...(run.requestedBy
          ? {
              requestedFor: identityRef(request, state, run.requestedBy),
              requestedBy: identityRef(request, state, run.requestedBy),
              lastChangedBy: identityRef(request, state, run.requestedBy),
            }
          : {}),
      };
    },
  );

  app.get<{ Params: ProjectParams & { buildId: string } }>(
    '/:org/:project/_apis/build/builds/:buildId/logs',
    async (request) => {
      const project = requireProject(state, request.params.project);
      const run = findRun(project, request.params.buildId);
      const base = projectUrl(request, state, project);
      return wrap([
        {
          lineCount: run.log.length,
          ...logTimes(run),
          id: LOG_ID,
          type: 'Container',
          url: `${base}/_apis/build/builds/${run.id}/logs/${LOG_ID}`,
        },
      ]);
    },
  );

  app.get<{ Params: ProjectParams & { buildId: string; logId: string } }>(
    '/:org/:project/_apis/build/builds/:buildId/logs/:logId',
    async (request, reply) => {
      const project = requireProject(state, request.params.project);
      const run = findRun(project, request.params.buildId);
      requireLog(request.params.logId);
      const query = request.query as Query;
      const start = Math.max(1, intParam(query, 'startLine') ?? 1);
      const end = Math.min(run.log.length, intParam(query, 'endLine') ?? run.log.length);
      return reply
        .type('text/plain; charset=utf-8')
        .send(run.log.slice(start - 1, end).join('\r\n'));
    },
  );

  app.get<{ Params: RunParams }>(
    '/:org/:project/_apis/pipelines/:pipelineId/runs/:runId/logs',
    async (request) => {
      const project = requireProject(state, request.params.project);
      const pipeline = requirePipeline(project, request.params.pipelineId);
      const run = findRun(project, request.params.runId);
      const base = `${projectUrl(request, state, project)}/_apis/pipelines/${pipeline.id}/runs/${run.id}/logs`;
      return {
        logs: [
          { ...logTimes(run), lineCount: run.log.length, id: LOG_ID, url: `${base}/${LOG_ID}` },
        ],
        url: base,
      };
    },
  );

  app.get<{ Params: RunParams & { logId: string } }>(
    '/:org/:project/_apis/pipelines/:pipelineId/runs/:runId/logs/:logId',
    async (request) => {
      const project = requireProject(state, request.params.project);
      const pipeline = requirePipeline(project, request.params.pipelineId);
      const run = findRun(project, request.params.runId);
      requireLog(request.params.logId);
      const base = projectUrl(request, state, project);
      const expand = (queryParam(request.query as Query, '$expand') ?? '').toLowerCase();
      return {
        ...logTimes(run),
        lineCount: run.log.length,
        ...(expand === 'signedcontent'
          ? {
              signedContent: {
                url: `${base}/_apis/build/builds/${run.id}/logs/${LOG_ID}?api-version=7.1`,
                signatureExpires: new Date(Date.now() + 3_600_000).toISOString(),
              },
            }
          : {}),
        id: LOG_ID,
        url: `${base}/_apis/pipelines/${pipeline.id}/runs/${run.id}/logs/${LOG_ID}`,
      };
    },
  );

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
  const folders = async (request: FastifyRequest<{ Params: ProjectParams & { '*'?: string } }>) => {
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
    async (request) => {
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
