import { DEVOPS_SCOPE, DevOpsClient, type DevOpsApi } from '@aegis/connectors/devops';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';

import { registering } from '../lib/registering';
import type { AppOwnToken, OnBehalfOf } from '../services/on-behalf-of';

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * Azure DevOps as the Aegis app's own service identity (ADR 051), when configured: the one
     * identity that may bypass main's branch policy, for Aegis's own small writes only.
     */
    aegisDevOps: DevOpsApi | undefined;
  }
  interface FastifyRequest {
    /** Azure DevOps as the signed-in user (ADR 031: a token obtained on their behalf). */
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
  /**
   * Trades the caller's Aegis API token for a DevOps token (ADR 031). Without it (no app secret
   * configured) the caller's token is forwarded as it is, so it must itself be a DevOps token
   * (ADR 003).
   */
  readonly onBehalfOf?: OnBehalfOf;
  /** The staff tenant to ask for DevOps tokens in, when the token names none (`tid`). */
  readonly tenantId?: string;
  /** The Aegis app's own token (client credentials), for `app.aegisDevOps`. */
  readonly appOwnToken?: AppOwnToken;
}

export const devOpsPlugin = fp<DevOpsPluginOptions>(
  registering(
    (
      app: FastifyInstance,
      { organizationUrl, createDevOps, timeoutInMs, onBehalfOf, tenantId, appOwnToken },
    ) => {
      const create: DevOpsFactory =
        createDevOps ??
        ((getToken) => new DevOpsClient({ organizationUrl, getToken, timeoutInMs }));
      app.decorate(
        'aegisDevOps',
        appOwnToken ? create(() => appOwnToken.acquire([DEVOPS_SCOPE])) : undefined,
      );
      const tokenFor = (request: FastifyRequest) => (): Promise<string> =>
        onBehalfOf
          ? onBehalfOf.acquire(request.accessToken, {
              scopes: [DEVOPS_SCOPE],
              tenantId: request.user.tenantId ?? tenantId ?? 'organizations',
            })
          : Promise.resolve(request.accessToken);
      app.decorateRequest('devops', null as unknown as DevOpsApi);
      app.addHook('onRequest', (request, _reply, done) => {
        request.devops = create(tokenFor(request));
        done();
      });
    },
  ),
  { name: 'devops', dependencies: ['auth'] },
);
