import type { FleetService } from '@aegis/insights';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';

import { registering } from '../lib/registering';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * The route writes to the folder of the client in its `:client` parameter on main: once it
     * answered 2xx, that client's fleet summary is recomputed and stored (ADR 062).
     */
    changesClientOnMain?: boolean;
  }
}

export interface FleetRefreshPluginOptions {
  /** The fleet service of a request; none when no summary store is configured. */
  readonly serviceOf: ((request: FastifyRequest) => FleetService) | undefined;
}

/**
 * After a change Aegis itself makes to a client's folder on main (accepted deviations, matches),
 * its fleet summary is refreshed once the answer is sent, so the Fleet page of every instance finds
 * it stored; changes made elsewhere (merges in Azure DevOps) are found stale by the next reader.
 * Changes to one client that arrive while its refresh runs make one more refresh, not one each.
 */
export const fleetRefreshPlugin = fp<FleetRefreshPluginOptions>(
  registering((app: FastifyInstance, { serviceOf }) => {
    if (!serviceOf) return;
    /** per client: the refresh under way, and whether another change came in meanwhile */
    const underWay = new Map<string, { again: boolean }>();
    const refresh = async (request: FastifyRequest, client: string) => {
      const running = underWay.get(client);
      if (running) {
        running.again = true;
        return;
      }
      const state = { again: true };
      underWay.set(client, state);
      try {
        while (state.again) {
          state.again = false;
          await serviceOf(request).refresh([client]);
        }
      } catch (error) {
        request.log.warn({ err: error, client }, 'fleet: summary not refreshed after a change');
      } finally {
        underWay.delete(client);
      }
    };
    app.addHook('onResponse', async (request, reply) => {
      if (!request.routeOptions.config.changesClientOnMain || reply.statusCode >= 300) return;
      const client = (request.params as { client?: unknown } | undefined)?.client;
      if (typeof client === 'string') await refresh(request, client);
    });
  }),
  { name: 'fleet-refresh', dependencies: ['config-repository'] },
);
