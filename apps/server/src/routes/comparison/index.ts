import type { DevOpsApi } from '@aegis/connectors/devops';
import {
  clientListSchema,
  clientParamsSchema,
  policyFilesSchema,
  policyQuerySchema,
  runComparisonBodySchema,
} from '@aegis/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

import { streamProgress } from '../../lib/progress-stream';
import {
  ComparisonService,
  createComparisonCaches,
  MESSAGES,
  type ComparisonCaches,
} from '../../services/comparison-service';

const tags = ['comparison'];

export interface ComparisonRoutesOptions {
  readonly config: { AEGIS_DEVOPS_PROJECT: string; AEGIS_DEVOPS_CONFIG_REPO: string };
  /** Shared between requests; the benchmark and tests may pass their own. */
  readonly caches?: ComparisonCaches;
}

/** Configuration Comparison (spec 1 §2, §4, §7, §8). */
export const comparisonRoutes: FastifyPluginAsyncZod<ComparisonRoutesOptions> = async (
  app,
  { config, caches = createComparisonCaches() },
) => {
  const repo = {
    project: config.AEGIS_DEVOPS_PROJECT,
    repository: config.AEGIS_DEVOPS_CONFIG_REPO,
  };
  const service = (devops: DevOpsApi) => new ComparisonService(devops, repo, caches);

  app.get(
    '/api/comparison/clients',
    { config: { role: 'Reader' }, schema: { tags, response: { 200: clientListSchema } } },
    async (request) => ({ clients: await service(request.devops).listClients() }),
  );

  app.post(
    '/api/comparison/runs',
    {
      config: { role: 'Reader' },
      schema: {
        tags,
        description:
          'Runs a comparison; answers application/x-ndjson: progress events, then a result or an error event.',
        body: runComparisonBodySchema,
      },
    },
    async (request, reply) => {
      const { client, baselineType } = request.body;
      const prefix = baselineType === 'standard' ? MESSAGES.compareStandard : MESSAGES.compareFiles;
      // The bar starts at 0 at once; every failure, even the first, arrives as an event with the spec's text.
      return streamProgress(
        request,
        reply,
        (onProgress) => {
          onProgress(0);
          return service(request.devops).runComparison(client, baselineType, onProgress);
        },
        { errorPrefix: prefix },
      );
    },
  );

  app.get(
    '/api/comparison/clients/:client/configurations',
    {
      config: { role: 'Reader' },
      schema: {
        tags,
        description:
          'Both configurations (baseline and client) for viewing; application/x-ndjson like the runs.',
        params: clientParamsSchema,
      },
    },
    async (request, reply) =>
      streamProgress(
        request,
        reply,
        (onProgress) => {
          onProgress(0);
          return service(request.devops).loadConfigurations(request.params.client, onProgress);
        },
        { errorPrefix: MESSAGES.fetchConfiguration },
      ),
  );

  app.get(
    '/api/comparison/clients/:client/policy',
    {
      config: { role: 'Reader' },
      schema: {
        tags,
        params: clientParamsSchema,
        querystring: policyQuerySchema,
        response: { 200: policyFilesSchema },
      },
    },
    async (request) => service(request.devops).getPolicy(request.params.client, request.query.path),
  );
};
