import {
  captureAnalysisBodySchema,
  captureAnalysisSchema,
  captureBranchListSchema,
  captureClientParamsSchema,
  captureFileQuerySchema,
  captureFileSchema,
  captureOverviewSchema,
  capturePullRequestCreatedSchema,
  captureRunParamsSchema,
  captureRunSchema,
  createCapturePullRequestBodySchema,
  startCaptureBodySchema,
} from '@aegis/contracts';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';

import type { AegisConfig } from '../../config';
import { registering } from '../../lib/registering';
import {
  CaptureService,
  createCaptureCaches,
  type CaptureCaches,
} from '../../services/capture-service';

const tags = ['capture'];

export interface CaptureRoutesOptions {
  readonly config: Pick<AegisConfig, 'AEGIS_DEVOPS_PROJECT' | 'AEGIS_DEVOPS_CONFIG_REPO'>;
  /** Shared between requests; the benchmark may pass its own. */
  readonly caches?: CaptureCaches;
}

/**
 * Configuration capture and review (spec 3 §2, §7): Reader to look, Operator to start a capture,
 * Approver to approve a review (the pull request).
 */
export const captureRoutes: FastifyPluginCallbackZod<CaptureRoutesOptions> = registering(
  (app, { config, caches = createCaptureCaches() }) => {
    const service = (request: FastifyRequest) =>
      new CaptureService(
        request.configRepository,
        request.pipelineRuns,
        caches,
        config.AEGIS_DEVOPS_PROJECT,
      );

    app.get(
      '/api/capture/clients/:client/branches',
      {
        config: { role: 'Reader', heavy: true },
        schema: {
          tags,
          params: captureClientParamsSchema,
          response: { 200: captureBranchListSchema },
        },
      },
      async (request) => ({
        client: request.params.client,
        branches: await service(request).listBranches(request.params.client),
      }),
    );

    app.get(
      '/api/capture/clients/:client/overview',
      {
        config: { role: 'Reader', heavy: true },
        schema: {
          tags,
          params: captureClientParamsSchema,
          response: { 200: captureOverviewSchema },
        },
      },
      async (request) => service(request).overview(request.params.client),
    );

    app.post(
      '/api/capture/clients/:client/analysis',
      {
        config: { role: 'Reader', heavy: true },
        schema: {
          tags,
          description:
            'Review analysis of a capture branch: drift against main (git diff, changed files only) and compliance against the baseline. Reads only.',
          params: captureClientParamsSchema,
          body: captureAnalysisBodySchema,
          response: { 200: captureAnalysisSchema },
        },
      },
      async (request) => {
        const { branch, excludedProperties, excludedPaths } = request.body;
        return service(request).analyse(
          request.params.client,
          branch,
          excludedProperties,
          excludedPaths,
        );
      },
    );

    app.get(
      '/api/capture/clients/:client/file',
      {
        config: { role: 'Reader' },
        schema: {
          tags,
          params: captureClientParamsSchema,
          querystring: captureFileQuerySchema,
          response: { 200: captureFileSchema },
        },
      },
      async (request) =>
        service(request).getFile(request.params.client, request.query.branch, request.query.path),
    );

    app.post(
      '/api/capture/clients/:client/pull-requests',
      {
        config: { role: 'Approver' },
        schema: {
          tags,
          params: captureClientParamsSchema,
          body: createCapturePullRequestBodySchema,
          response: { 201: capturePullRequestCreatedSchema },
        },
      },
      async (request, reply) => {
        const created = await service(request).createPullRequest(
          request.params.client,
          request.body,
          {
            upn: request.user.upn,
            ...(request.user.displayName ? { displayName: request.user.displayName } : {}),
          },
        );
        return reply.code(201).send(created);
      },
    );

    app.post(
      '/api/capture/clients/:client/runs',
      {
        config: { role: 'Operator' },
        schema: {
          tags,
          params: captureClientParamsSchema,
          body: startCaptureBodySchema,
          response: { 201: captureRunSchema },
        },
      },
      async (request, reply) =>
        reply
          .code(201)
          .send(await service(request).startCapture(request.params.client, request.body)),
    );

    app.get(
      '/api/capture/clients/:client/runs/:runId',
      {
        config: { role: 'Reader' },
        schema: { tags, params: captureRunParamsSchema, response: { 200: captureRunSchema } },
      },
      async (request) => service(request).getRun(request.params.client, request.params.runId),
    );
  },
);
