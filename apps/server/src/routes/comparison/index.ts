import { withPrefix } from '@aegis/connectors';
import type { ConfigRepository } from '@aegis/connectors/repository';
import {
  clientParamsSchema,
  policyFilesSchema,
  policyQuerySchema,
  runComparisonBodySchema,
} from '@aegis/contracts';
import {
  ComparisonService,
  createComparisonCaches,
  MESSAGES,
  type ComparisonCaches,
} from '@aegis/insights';
import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';

import { streamProgress } from '../../lib/progress-stream';
import { registering } from '../../lib/registering';

const tags = ['comparison'];

export interface ComparisonRoutesOptions {
  /** Results shared between requests; the benchmark and tests may pass their own. */
  readonly caches?: ComparisonCaches;
}

/** Configuration Comparison (spec 1 §2, §4, §7, §8). */
export const comparisonRoutes: FastifyPluginCallbackZod<ComparisonRoutesOptions> = registering(
  (app, { caches = createComparisonCaches() }) => {
    const service = (repository: ConfigRepository) => new ComparisonService(repository, caches);

    app.post(
      '/api/comparison/runs',
      {
        config: { role: 'Reader', heavy: true },
        schema: {
          tags,
          description:
            'Runs a comparison; answers application/x-ndjson: progress events, then a result or an error event.',
          body: runComparisonBodySchema,
        },
      },
      async (request, reply) => {
        const { client, baselineType } = request.body;
        const prefix =
          baselineType === 'standard' ? MESSAGES.compareStandard : MESSAGES.compareFiles;
        const comparison = service(request.configRepository);
        await assertClientExists(comparison, client, prefix);
        // The bar starts at 0 at once; a failure after that arrives as an event with the spec's text.
        return streamProgress(
          request,
          reply,
          (onProgress) => {
            onProgress(0);
            return comparison.runComparison(client, baselineType, onProgress);
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
      async (request, reply) => {
        const { client } = request.params;
        const comparison = service(request.configRepository);
        await assertClientExists(comparison, client, MESSAGES.fetchConfiguration);
        return streamProgress(
          request,
          reply,
          (onProgress) => {
            onProgress(0);
            return comparison.loadConfigurations(client, onProgress);
          },
          { errorPrefix: MESSAGES.fetchConfiguration },
        );
      },
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
      async (request) =>
        service(request.configRepository).getPolicy(request.params.client, request.query.path),
    );
  },
);

/** An unknown client is a 404 before the stream starts, in the spec's words (spec 1 §8). */
async function assertClientExists(
  comparison: ComparisonService,
  client: string,
  prefix: string,
): Promise<void> {
  try {
    await comparison.assertClientExists(client);
  } catch (error) {
    throw withPrefix(prefix, error);
  }
}
