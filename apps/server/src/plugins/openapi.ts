import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';

import { accessOf } from './auth';

/**
 * OpenAPI generated from the zod route schemas, browsable at /api/docs (public). Each operation
 * shows who may call it: `x-aegis-access` (`public`, without a security requirement, or
 * `signed-in`), or the Aegis role it needs in `x-aegis-role` and in its description.
 */
export const openApiPlugin = fp(
  async (app: FastifyInstance) => {
    await app.register(swagger, {
      openapi: {
        info: {
          title: 'Aegis API',
          version: '0.1.0',
          description: 'Operations portal API for managed Microsoft 365 tenants.',
        },
        components: {
          securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } },
        },
        security: [{ bearer: [] }],
      },
      transform: (input) => {
        const transformed = jsonSchemaTransform(input);
        const access = accessOf(input.route.config);
        if (!access) return transformed;
        const schema = { ...(transformed.schema as Record<string, unknown>) };
        if ('access' in access) {
          schema['x-aegis-access'] = access.access;
          if (access.access === 'public') schema.security = [];
        } else {
          schema['x-aegis-role'] = access.role;
          const needs = `Needs the Aegis ${access.role} role.`;
          schema.description =
            typeof schema.description === 'string' ? `${schema.description}\n\n${needs}` : needs;
        }
        return { ...transformed, schema };
      },
    });
    await app.register(async (docs) => {
      docs.addHook('onRoute', (route) => {
        route.config = { ...route.config, access: 'public' };
      });
      await docs.register(swaggerUi, { routePrefix: '/api/docs' });
    });
  },
  { name: 'openapi', dependencies: ['auth'] },
);
