// What the Pipelines and Build resources share: the JSON of a pipeline and a run, and lookups
// that answer the service's 404s.
import type { FastifyRequest } from 'fastify';

import type { DevOpsState, PipelineRecord, ProjectRecord, RunRecord } from '../state';

import { DevOpsError, projectUrl } from './common';

export interface ProjectParams {
  project: string;
}
export interface PipelineParams extends ProjectParams {
  pipelineId: string;
}
export interface RunParams extends PipelineParams {
  runId: string;
}

/** A run has one log (the job's output), served by both the Build and the Pipelines API. */
export const LOG_ID = 1;

export function pipelineShapes(state: DevOpsState) {
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
  const requireLog = (logId: string) => {
    if (Number(logId) !== LOG_ID) {
      throw new DevOpsError(404, 'LogNotFoundException', `Log ${logId} was not found.`);
    }
  };
  const logTimes = (run: RunRecord) => ({
    createdOn: run.createdDate,
    lastChangedOn: run.finishedDate ?? run.log.at(-1)?.slice(0, 24) ?? run.createdDate,
  });

  return { pipelineRef, requirePipeline, runJson, findRun, requireLog, logTimes };
}
