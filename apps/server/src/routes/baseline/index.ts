import {
  baselineFileResponseSchema,
  baselineItemsResponseSchema,
  baselinePathQuerySchema,
  baselineRunResponseSchema,
  deployPreviewRequestSchema,
  deployPreviewResponseSchema,
  clientSettingsParamsSchema,
  deployRunRequestSchema,
  droppedLayersOffboardBodySchema,
  offboardRunRequestSchema,
} from '@aegis/contracts';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';

import { registering } from '../../lib/registering';
import { BaselineDeployment } from '../../services/baseline-deployment';

const tags = ['baseline'];

export interface BaselineRoutesOptions {
  readonly project: string;
}

/**
 * The Tenant baseline screen's deploy and off-board tabs (spec 2 §2, §7): Administrator to start
 * deploy and off-board runs (and to preview a deploy); Reader to read the company baseline's files
 * for the configuration preview. Runs are followed at
 * GET /api/projects/{project}/pipelines/{pipelineId}/runs/{id}.
 */
export const baselineRoutes: FastifyPluginCallbackZod<BaselineRoutesOptions> = registering(
  (app, { project }) => {
    const service = (request: FastifyRequest) =>
      new BaselineDeployment(
        project,
        request.devops,
        request.pipelineRuns,
        request.configRepository,
      );

    app.post(
      '/api/baseline/deploy/runs',
      {
        config: { role: 'Administrator' },
        schema: {
          tags,
          body: deployRunRequestSchema,
          response: { 201: baselineRunResponseSchema },
        },
      },
      async (request, reply) => {
        const run = await service(request).deploy(request.body.pipelineId, request.body.components);
        request.log.info(
          {
            clientCode: run.clientCode,
            runId: run.id,
            components: request.body.components ?? 'all',
          },
          'baseline deploy started',
        );
        return reply.code(201).send(run);
      },
    );

    app.post(
      '/api/baseline/deploy/preview',
      {
        config: { role: 'Administrator' },
        schema: {
          tags,
          body: deployPreviewRequestSchema,
          response: { 200: deployPreviewResponseSchema },
        },
      },
      async (request) => service(request).preview(request.body.pipelineId, request.body.components),
    );

    app.post(
      '/api/baseline/offboard/runs',
      {
        config: { role: 'Administrator' },
        schema: {
          tags,
          body: offboardRunRequestSchema,
          response: { 201: baselineRunResponseSchema },
        },
      },
      async (request, reply) => {
        const run = await service(request).offboard(
          request.body.pipelineId,
          request.body.components,
        );
        request.log.info(
          { clientCode: run.clientCode, runId: run.id, components: request.body.components },
          'off-board started',
        );
        return reply.code(201).send(run);
      },
    );

    app.post(
      '/api/clients/:client/dropped-layers/runs',
      {
        // as a change of the client's layers (ADR 073)
        config: { role: 'Administrator' },
        schema: {
          tags,
          description:
            "Removes from the client's tenant the policies of layers it no longer has that its baseline no longer holds (ADR 079): an off-board run, which backs the tenant up first.",
          params: clientSettingsParamsSchema,
          body: droppedLayersOffboardBodySchema,
          response: { 201: baselineRunResponseSchema },
        },
      },
      async (request, reply) => {
        const run = await service(request).offboardDroppedLayers(
          request.params.client,
          request.body.layers,
        );
        request.log.info(
          { clientCode: run.clientCode, runId: run.id, layers: request.body.layers },
          'off-board of dropped layers started',
        );
        return reply.code(201).send(run);
      },
    );

    app.get(
      '/api/baseline/files',
      {
        config: { role: 'Reader' },
        schema: {
          tags,
          querystring: baselinePathQuerySchema,
          response: { 200: baselineItemsResponseSchema },
        },
      },
      async (request) => ({
        path: request.query.path,
        files: await service(request).files(request.query.path),
      }),
    );

    app.get(
      '/api/baseline/file',
      {
        config: { role: 'Reader' },
        schema: {
          tags,
          querystring: baselinePathQuerySchema,
          response: { 200: baselineFileResponseSchema },
        },
      },
      async (request) => service(request).file(request.query.path),
    );
  },
);
