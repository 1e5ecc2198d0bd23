// Pipelines - Runs (run, list, get) and Pipelines - Runs - Logs (list, and one log with a signed
// content URL).
import { textOf } from '@aegis/domain';
import type { FastifyInstance } from 'fastify';

import type { PipelineRunner } from '../pipeline-runner';
import type { DevOpsState, PipelineRecord, ProjectRecord, RunRecord } from '../state';

import {
  DevOpsError,
  callerIdentity,
  projectUrl,
  queryParam,
  requireProject,
  wrap,
  type Query,
} from './common';
import { LOG_ID, pipelineShapes, type PipelineParams, type RunParams } from './pipeline-shapes';

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

export function registerPipelineRunRoutes(
  app: FastifyInstance,
  state: DevOpsState,
  runner: PipelineRunner,
): void {
  const { requirePipeline, runJson, findRun, requireLog, logTimes } = pipelineShapes(state);

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
        variables[name] = { value: textOf(variable.value), isSecret: variable.isSecret === true };
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
    (request) => {
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
    (request) => {
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

  app.get<{ Params: RunParams }>(
    '/:org/:project/_apis/pipelines/:pipelineId/runs/:runId/logs',
    (request) => {
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
    (request) => {
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
}
