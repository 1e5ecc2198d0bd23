import {
  fleetClientParamsSchema,
  fleetSchema,
  fleetTrendListSchema,
  fleetTrendQuerySchema,
  fleetTrendSchema,
} from '@aegis/contracts';
import { NotFoundError } from '@aegis/domain';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

import type { AegisConfig } from '../../config';
import { CaptureService, createCaptureCaches } from '../../services/capture-service';
import { createFleetCaches, FleetService, type FleetCaches } from '../../services/fleet-service';
import { createFleetSummarizer } from '../../services/fleet-summarizer';

const tags = ['fleet'];

export interface FleetRoutesOptions {
  readonly config: Pick<
    AegisConfig,
    'AEGIS_DEVOPS_PROJECT' | 'AEGIS_DEVOPS_CONFIG_REPO' | 'AEGIS_FLEET_WORKERS'
  >;
  /** Shared between requests; the benchmark and tests may pass their own. */
  readonly caches?: FleetCaches;
}

/** The fleet view (issue 17, ADR 034): every client's figures and their trend, for Readers. */
export const fleetRoutes: FastifyPluginAsyncZod<FleetRoutesOptions> = async (
  app,
  { config, caches = createFleetCaches() },
) => {
  const captureCaches = createCaptureCaches();
  const summarizer = createFleetSummarizer(config.AEGIS_FLEET_WORKERS, app.log);
  app.addHook('onClose', () => summarizer.close());
  const service = (request: FastifyRequest) =>
    new FleetService(
      request.configRepository,
      new CaptureService(
        request.configRepository,
        request.pipelineRuns,
        captureCaches,
        config.AEGIS_DEVOPS_PROJECT,
      ),
      caches,
      request.log,
      summarizer,
    );

  app.get(
    '/api/fleet',
    {
      config: { role: 'Reader', heavy: true },
      schema: {
        tags,
        description:
          "Every client's compliance (company baseline and standard catalogue), critical/high counts, accepted deviations, last capture, backups and pending reviews at main; a client whose figures could not be had lists what is missing and is never compliant.",
        response: { 200: fleetSchema },
      },
    },
    async (request) => service(request).fleet(),
  );

  app.get(
    '/api/fleet/trends',
    {
      config: { role: 'Reader', heavy: true },
      schema: {
        tags,
        description:
          "Every client's compliance trend (merges touching its folder and backup tags as points), for the sparklines.",
        querystring: fleetTrendQuerySchema,
        response: { 200: fleetTrendListSchema },
      },
    },
    async (request) => ({ trends: await service(request).trends(undefined, request.query.points) }),
  );

  app.get(
    '/api/fleet/:client/trend',
    {
      config: { role: 'Reader', heavy: true },
      schema: {
        tags,
        description: "One client's compliance and critical count at each point of its history.",
        params: fleetClientParamsSchema,
        querystring: fleetTrendQuerySchema,
        response: { 200: fleetTrendSchema },
      },
    },
    async (request) => {
      const [trend] = await service(request).trends([request.params.client], request.query.points);
      if (!trend || trend.points.length === 0) {
        throw new NotFoundError(`No history found for client ${request.params.client}`);
      }
      return trend;
    },
  );
};
