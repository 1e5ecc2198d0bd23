import {
  pipelineListSchema,
  pipelineParamsSchema,
  pipelineRunListSchema,
  pipelineRunSchema,
  projectListSchema,
  projectParamsSchema,
  runLogSchema,
  runParamsSchema,
  startRunBodySchema,
} from '@aegis/contracts';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';

import { registering } from '../../lib/registering';
import { PipelinesService } from '../../services/pipelines-service';

const tags = ['projects'];

const service = (request: FastifyRequest) =>
  new PipelinesService(request.devops, request.pipelineRuns);

/** Projects, their client pipelines and pipeline runs (spec 1 §2, §7). */
export const projectRoutes: FastifyPluginCallbackZod = registering((app) => {
  app.get(
    '/api/projects',
    { config: { role: 'Reader' }, schema: { tags, response: { 200: projectListSchema } } },
    async (request) => ({
      projects: await service(request).listProjects(),
    }),
  );

  app.get(
    '/api/projects/:projectId/pipelines',
    {
      config: { role: 'Reader' },
      schema: { tags, params: projectParamsSchema, response: { 200: pipelineListSchema } },
    },
    async (request) => ({
      pipelines: await service(request).listProjectPipelines(request.params.projectId),
    }),
  );

  app.get(
    '/api/pipelines',
    { config: { role: 'Reader' }, schema: { tags, response: { 200: pipelineListSchema } } },
    async (request) => ({
      pipelines: await service(request).listClientPipelines(),
    }),
  );

  app.post(
    '/api/projects/:projectId/pipelines/:pipelineId/runs',
    {
      config: { role: 'Operator' },
      schema: {
        tags,
        params: pipelineParamsSchema,
        body: startRunBodySchema,
        response: { 201: pipelineRunSchema },
      },
    },
    async (request, reply) => {
      const { projectId, pipelineId } = request.params;
      const run = await service(request).startRun(projectId, pipelineId, request.body);
      return reply.code(201).send(run);
    },
  );

  app.get(
    '/api/projects/:projectId/pipelines/:pipelineId/runs',
    {
      config: { role: 'Reader' },
      schema: { tags, params: pipelineParamsSchema, response: { 200: pipelineRunListSchema } },
    },
    async (request) => {
      const { projectId, pipelineId } = request.params;
      return { runs: await service(request).listRuns(projectId, pipelineId) };
    },
  );

  app.get(
    '/api/projects/:projectId/pipelines/:pipelineId/runs/:runId',
    {
      config: { role: 'Reader' },
      schema: { tags, params: runParamsSchema, response: { 200: pipelineRunSchema } },
    },
    async (request) => {
      const { projectId, pipelineId, runId } = request.params;
      return service(request).getRun(projectId, pipelineId, runId);
    },
  );

  app.get(
    '/api/projects/:projectId/pipelines/:pipelineId/runs/:runId/log',
    {
      config: { role: 'Reader' },
      schema: { tags, params: runParamsSchema, response: { 200: runLogSchema } },
    },
    async (request) => {
      const { projectId, pipelineId, runId } = request.params;
      return service(request).getRunLog(projectId, pipelineId, runId);
    },
  );
});
