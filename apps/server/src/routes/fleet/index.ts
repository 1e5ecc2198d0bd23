import type { ConfigRepository } from '@aegis/connectors/repository';
import { FleetSummaryStore, type AppTables } from '@aegis/connectors/tables';
import {
  fleetClientParamsSchema,
  fleetSchema,
  fleetTrendListSchema,
  fleetTrendQuerySchema,
  fleetTrendSchema,
} from '@aegis/contracts';
import { NotFoundError } from '@aegis/domain';
import { createFleetCaches, FleetService, type FleetSummarizer } from '@aegis/insights';
import type { FastifyBaseLogger, FastifyRequest } from 'fastify';
import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';

import type { AegisConfig } from '../../config';
import { registering } from '../../lib/registering';
import { CaptureService, createCaptureCaches } from '../../services/capture-service';
import { createFleetSummarizer } from '../../services/fleet-summarizer';

const tags = ['fleet'];

type FleetConfig = Pick<
  AegisConfig,
  'AEGIS_DEVOPS_PROJECT' | 'AEGIS_DEVOPS_CONFIG_REPO' | 'AEGIS_FLEET_WORKERS'
>;

/** The fleet service of a request, over what every request of the app shares. */
export type FleetServiceOf = (request: FastifyRequest) => FleetService;

/**
 * The fleet's app-wide parts (caches, summary workers, the summary store when Table storage is
 * configured, ADR 062) and the service of each request over them: the fleet routes and the
 * refresh after a change (plugins/fleet-refresh) use the same.
 */
export function createFleetServices(
  config: FleetConfig,
  tables: AppTables | undefined,
  log: FastifyBaseLogger,
): {
  serviceOf: FleetServiceOf;
  /** the service when summaries are stored: what refreshes them after a change */
  storingServiceOf: FleetServiceOf | undefined;
  /** over a repository read as the Aegis app itself, when summaries are stored (service hooks) */
  storingServiceFor: ((repository: ConfigRepository) => FleetService) | undefined;
  summarizer: FleetSummarizer;
} {
  const caches = createFleetCaches();
  const captureCaches = createCaptureCaches();
  const summarizer = createFleetSummarizer(config.AEGIS_FLEET_WORKERS, log);
  const store = tables ? new FleetSummaryStore(tables, log) : undefined;
  const serviceOf = (request: FastifyRequest) =>
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
      undefined,
      store,
    );
  // a hook's refresh computes summaries only: the capture overviews are the Fleet page's
  const noCaptures = {
    overviews: () => Promise.reject(new Error('a summary refresh reads no captures')),
  };
  const storingServiceFor = (repository: ConfigRepository) =>
    new FleetService(repository, noCaptures, caches, log, summarizer, undefined, store);
  return {
    serviceOf,
    storingServiceOf: store ? serviceOf : undefined,
    storingServiceFor: store ? storingServiceFor : undefined,
    summarizer,
  };
}

export interface FleetRoutesOptions {
  readonly config: FleetConfig;
  /** The app's fleet services; by default the routes' own, without a summary store. */
  readonly services?: ReturnType<typeof createFleetServices>;
}

/** The fleet view (issue 17, ADR 034): every client's figures and their trend, for Readers. */
export const fleetRoutes: FastifyPluginCallbackZod<FleetRoutesOptions> = registering(
  (app, { config, services = createFleetServices(config, undefined, app.log) }) => {
    const { serviceOf: service, summarizer } = services;
    app.addHook('onClose', () => summarizer.close());

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
      async (request) => ({
        trends: await service(request).trends(undefined, request.query.points),
      }),
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
        const [trend] = await service(request).trends(
          [request.params.client],
          request.query.points,
        );
        if (!trend || trend.points.length === 0) {
          throw new NotFoundError(`No history found for client ${request.params.client}`);
        }
        return trend;
      },
    );
  },
);
