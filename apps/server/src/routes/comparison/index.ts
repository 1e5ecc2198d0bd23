import { PassThrough } from 'node:stream';

import type { DevOpsApi } from '@aegis/connectors/devops';
import {
  clientListSchema,
  clientParamsSchema,
  policyFilesSchema,
  policyQuerySchema,
  runComparisonBodySchema,
} from '@aegis/contracts';
import type { FastifyBaseLogger, FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

import {
  ComparisonService,
  createComparisonCaches,
  MESSAGES,
  type ComparisonCaches,
  type ProgressReporter,
} from '../../services/comparison-service';

const tags = ['comparison'];

export interface ComparisonRoutesOptions {
  readonly config: { AEGIS_DEVOPS_PROJECT: string; AEGIS_DEVOPS_CONFIG_REPO: string };
  /** Shared between requests; the benchmark and tests may pass their own. */
  readonly caches?: ComparisonCaches;
}

const STATUS_BY_NAME: Record<string, number> = {
  ServiceError: 502,
  NotFoundError: 404,
  InputError: 400,
  NoSettingsError: 422,
};

/**
 * Streams NDJSON: progress events as the work reports them, then one result or one error event.
 * Once the 200 is sent a failure can only be an event, so errors carry their own status code.
 */
function streamNdjson(
  reply: FastifyReply,
  log: FastifyBaseLogger,
  errorPrefix: string,
  work: (onProgress: ProgressReporter) => Promise<unknown>,
): FastifyReply {
  const out = new PassThrough();
  out.on('error', () => {}); // the browser went away; nothing to tell it
  const write = (event: unknown) => {
    if (!out.destroyed && !out.writableEnded) out.write(`${JSON.stringify(event)}\n`);
  };
  let last = -1;
  const onProgress: ProgressReporter = (percent) => {
    const p = Math.max(0, Math.min(100, Math.floor(percent)));
    if (p <= last) return;
    last = p;
    write({ type: 'progress', percent: p });
  };
  void (async () => {
    try {
      onProgress(0);
      const result = await work(onProgress);
      write({ type: 'result', result });
    } catch (error) {
      const err = error instanceof Error ? error : new Error(String(error));
      const statusCode = STATUS_BY_NAME[err.name] ?? 500;
      if (statusCode === 500) log.error({ err }, 'comparison failed');
      else log.warn({ err }, 'comparison failed');
      write({
        type: 'error',
        statusCode,
        message: statusCode === 500 ? `${errorPrefix}Internal Server Error` : err.message,
      });
    } finally {
      out.end();
    }
  })();
  return reply
    .header('content-type', 'application/x-ndjson; charset=utf-8')
    .header('cache-control', 'no-store')
    .header('x-accel-buffering', 'no')
    .send(out);
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
    { schema: { tags, response: { 200: clientListSchema } } },
    async (request) => ({ clients: await service(request.devops).listClients() }),
  );

  app.post(
    '/api/comparison/runs',
    {
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
      return streamNdjson(reply, request.log, prefix, (onProgress) =>
        service(request.devops).runComparison(client, baselineType, onProgress),
      );
    },
  );

  app.get(
    '/api/comparison/clients/:client/configurations',
    {
      schema: {
        tags,
        description:
          'Both configurations (baseline and client) for viewing; application/x-ndjson like the runs.',
        params: clientParamsSchema,
      },
    },
    async (request, reply) =>
      streamNdjson(reply, request.log, MESSAGES.fetchConfiguration, (onProgress) =>
        service(request.devops).loadConfigurations(request.params.client, onProgress),
      ),
  );

  app.get(
    '/api/comparison/clients/:client/policy',
    {
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
