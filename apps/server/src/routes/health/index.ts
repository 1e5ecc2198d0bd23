import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';
import { z } from 'zod';

import { registering } from '../../lib/registering';
import { DEPENDENCIES, type ReadinessProbe } from '../../services/readiness';

export interface HealthRoutesOptions {
  readiness: ReadinessProbe;
}

const dependencyStatus = z.object({ ready: z.boolean(), reason: z.string().optional() });
const readinessReport = z.object({
  ready: z.boolean(),
  checkedAt: z.string(),
  dependencies: z.object(
    Object.fromEntries(DEPENDENCIES.map((name) => [name, dependencyStatus])) as Record<
      (typeof DEPENDENCIES)[number],
      typeof dependencyStatus
    >,
  ),
});

/** Liveness and readiness for an orchestrator (ADR 053); neither needs a token. */
export const healthRoutes: FastifyPluginCallbackZod<HealthRoutesOptions> = registering(
  (app, { readiness }) => {
    // Liveness: the process answers. It checks nothing else, so a DevOps outage never gets every
    // instance restarted at once.
    app.get(
      '/api/health',
      {
        config: { access: 'public' },
        schema: {
          tags: ['health'],
          security: [],
          response: { 200: z.object({ status: z.literal('ok'), uptimeInSeconds: z.number() }) },
        },
      },
      () => ({ status: 'ok' as const, uptimeInSeconds: Math.round(process.uptime()) }),
    );

    app.get(
      '/api/health/ready',
      {
        config: { access: 'public' },
        schema: {
          tags: ['health'],
          security: [],
          description:
            'Whether Azure DevOps, Table storage and the identity provider answer (checked at most every few seconds); 503 names what does not.',
          response: { 200: readinessReport, 503: readinessReport },
        },
      },
      async (_request, reply) => {
        const report = await readiness.report();
        return reply.code(report.ready ? 200 : 503).send(report);
      },
    );
  },
);
