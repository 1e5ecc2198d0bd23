import fs from 'node:fs';
import path from 'node:path';

import type { AppTables } from '@aegis/connectors/tables';
import fastifyStatic from '@fastify/static';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import {
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';

import type { AegisConfig } from './config';
import { authPlugin } from './plugins/auth';
import { devOpsPlugin, type DevOpsFactory } from './plugins/devops';
import { errorHandlerPlugin } from './plugins/error-handler';
import { openApiPlugin } from './plugins/openapi';
import { securityPlugin } from './plugins/security';
import { appTablesRoutes } from './routes/app-tables';
import { backupRoutes } from './routes/backups';
import { captureRoutes } from './routes/capture';
import { comparisonRoutes } from './routes/comparison';
import { healthRoutes } from './routes/health';
import { projectRoutes } from './routes/projects';
import { sessionRoutes } from './routes/session';

export interface BuildAppOptions {
  readonly config: AegisConfig;
  readonly logger?: FastifyServerOptions['logger'];
  /** Ports: tests inject fakes; by default each adapter is built from `config`. */
  readonly createDevOps?: DevOpsFactory;
  /** The AppTables port; by default the Table storage adapter built from `config`. */
  readonly tables?: AppTables;
}

/** Secrets never reach the logs (ARCHITECTURE §5). */
export const LOG_REDACTIONS = [
  'req.headers.authorization',
  'req.headers.cookie',
  '*.password',
  '*.TenantAdminUserPW',
  '*.secret',
  '*.accessToken',
];

/** The Aegis API and the SPA, as one Fastify app; server.ts and the tests build exactly this. */
export async function buildApp({
  config,
  logger,
  createDevOps,
  tables,
}: BuildAppOptions): Promise<FastifyInstance> {
  const app = Fastify({
    logger: logger ?? { level: config.AEGIS_LOG_LEVEL, redact: LOG_REDACTIONS },
    bodyLimit: 5 * 1024 * 1024,
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  const connectOrigins = [
    config.AEGIS_LOCAL_IDP_URL,
    'https://login.microsoftonline.com',
    'https://graph.microsoft.com',
  ]
    .filter((url): url is string => Boolean(url))
    .map((url) => new URL(url).origin);

  await app.register(errorHandlerPlugin);
  await app.register(securityPlugin, { connectOrigins });
  await app.register(openApiPlugin);
  await app.register(authPlugin, {
    jwksUrl: config.AEGIS_AUTH_JWKS_URL,
    issuer: config.AEGIS_AUTH_ISSUER,
    audience: config.AEGIS_AUTH_AUDIENCE,
    publicPaths: ['/api/health', '/api/docs'],
  });

  await app.register(devOpsPlugin, { organizationUrl: config.AEGIS_DEVOPS_ORG_URL, createDevOps });

  await app.register(healthRoutes);
  await app.register(sessionRoutes, { config });
  await app.register(projectRoutes);
  await app.register(appTablesRoutes, { config, ...(tables ? { tables } : {}) });
  await app.register(backupRoutes, { config });
  await app.register(comparisonRoutes, { config });
  await app.register(captureRoutes, { config });

  registerSpa(app, config.AEGIS_WEB_DIST);
  return app;
}

/** Serves the built SPA; unknown non-API GETs get index.html so client routes deep-link. */
function registerSpa(app: FastifyInstance, webDist: string): void {
  const indexFile = webDist ? path.join(webDist, 'index.html') : '';
  const hasSpa = indexFile !== '' && fs.existsSync(indexFile);
  if (hasSpa) {
    void app.register(fastifyStatic, {
      root: path.resolve(webDist),
      index: 'index.html',
      wildcard: true,
    });
  }
  app.setNotFoundHandler((request, reply) => {
    const isApi = request.url.startsWith('/api/') || request.url === '/api';
    if (hasSpa && request.method === 'GET' && !isApi) {
      return reply.type('text/html').sendFile('index.html');
    }
    return reply.code(404).send({
      error: 'NotFoundError',
      statusCode: 404,
      message: `Route ${request.method} ${request.url} not found`,
    });
  });
}
