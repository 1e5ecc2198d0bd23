import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';

export const healthRoutes: FastifyPluginAsyncZod = async (app) => {
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
    async () => ({ status: 'ok' as const, uptimeInSeconds: Math.round(process.uptime()) }),
  );
};
