// Build - Get, Build - Get Build Logs and Get Build Log (text): a run as the Build API records it.
import type { FastifyInstance } from 'fastify';

import type { DevOpsState } from '../state';

import {
  identityRef,
  intParam,
  projectReference,
  projectUrl,
  requireProject,
  wrap,
  type Query,
} from './common';
import { LOG_ID, pipelineShapes, type ProjectParams } from './pipeline-shapes';

export function registerBuildRoutes(app: FastifyInstance, state: DevOpsState): void {
  const { findRun, requireLog, logTimes } = pipelineShapes(state);

  // Build - Get: the run as the Build API records it, with who requested it (requestedBy) and for
  // whom (requestedFor); the Pipelines API's run has neither.
  app.get<{ Params: ProjectParams & { buildId: string } }>(
    '/:org/:project/_apis/build/builds/:buildId',
    (request) => {
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
    (request) => {
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
}
