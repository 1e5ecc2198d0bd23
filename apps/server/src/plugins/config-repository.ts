import {
  ConfigRepository,
  createConfigRepositoryShared,
  type ConfigRepositoryShared,
} from '@aegis/connectors/repository';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

import { registering } from '../lib/registering';

declare module 'fastify' {
  interface FastifyInstance {
    /** Caches and write queues every request's ConfigRepository shares (ADR 014). */
    configRepositoryShared: ConfigRepositoryShared;
  }
  interface FastifyRequest {
    /** The configuration repository as the signed-in user (their DevOps token), app-wide caches. */
    configRepository: ConfigRepository;
  }
}

export interface ConfigRepositoryPluginOptions {
  readonly project: string;
  readonly repository: string;
  /** Tests and the benchmark may pass their own (e.g. a different retry policy). */
  readonly shared?: ConfigRepositoryShared;
}

/** One ConfigRepository per request over `request.devops`, one cache for the whole app. */
export const configRepositoryPlugin = fp<ConfigRepositoryPluginOptions>(
  registering((app: FastifyInstance, { project, repository, shared }) => {
    const everyone = shared ?? createConfigRepositoryShared({ project, repository });
    app.decorate('configRepositoryShared', everyone);
    app.decorateRequest('configRepository', null as unknown as ConfigRepository);
    app.addHook('onRequest', (request, _reply, done) => {
      request.configRepository = new ConfigRepository(
        request.devops,
        everyone,
        () => request.user?.oid || request.user?.upn || '',
        app.aegisDevOps
          ? {
              devops: app.aegisDevOps,
              actor: () => ({
                name: request.user?.displayName || request.user?.upn || 'Unknown',
                email: request.user?.upn || '',
              }),
            }
          : undefined,
      );
      done();
    });
  }),
  { name: 'config-repository', dependencies: ['devops'] },
);
