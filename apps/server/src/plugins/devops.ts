import { DevOpsClient, type DevOpsApi } from '@aegis/connectors/devops';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

declare module 'fastify' {
  interface FastifyRequest {
    /** Azure DevOps as the signed-in user: their token is forwarded (ADR 003). */
    devops: DevOpsApi;
  }
}

export type DevOpsFactory = (getToken: () => Promise<string>) => DevOpsApi;

export interface DevOpsPluginOptions {
  readonly organizationUrl: string;
  /** Tests inject a fake here; by default the REST client for the configured organisation. */
  readonly createDevOps?: DevOpsFactory;
  /** Every DevOps call is aborted after this long and answered 504 (issue 9 §2). */
  readonly timeoutInMs?: number;
}

export const devOpsPlugin = fp<DevOpsPluginOptions>(
  async (app: FastifyInstance, { organizationUrl, createDevOps, timeoutInMs }) => {
    const create: DevOpsFactory =
      createDevOps ?? ((getToken) => new DevOpsClient({ organizationUrl, getToken, timeoutInMs }));
    app.decorateRequest('devops', null as unknown as DevOpsApi);
    app.addHook('onRequest', async (request) => {
      request.devops = create(() => Promise.resolve(request.accessToken));
    });
  },
  { name: 'devops', dependencies: ['auth'] },
);
