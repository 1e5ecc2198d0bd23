import type { AppTables } from '@aegis/connectors/tables';
import { clientListQuerySchema, knownClientListSchema } from '@aegis/contracts';
import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';

import type { AegisConfig } from '../../config';
import { registering } from '../../lib/registering';
import { ClientDirectory } from '../../services/client-directory';

export interface ClientRoutesOptions {
  readonly config: Pick<AegisConfig, 'AEGIS_DEVOPS_PROJECT'>;
  /** The app's one AppTables port (built in app.ts), asked for when a request needs it. */
  readonly tables: () => AppTables;
}

/**
 * The one client list (issue 31 item 3, ADR 054): every code Aegis knows with what it knows of
 * it. Every client picker reads it; Readers may, as every screen that shows one.
 */
export const clientRoutes: FastifyPluginCallbackZod<ClientRoutesOptions> = registering(
  (app, { config, tables }) => {
    app.get(
      '/api/clients',
      {
        config: { role: 'Reader' },
        schema: {
          tags: ['clients'],
          querystring: clientListQuerySchema,
          response: { 200: knownClientListSchema },
        },
      },
      async (request) => {
        const list = await new ClientDirectory(
          request.configRepository,
          request.devops,
          config.AEGIS_DEVOPS_PROJECT,
          tables,
        ).list();
        return request.query.only === 'clients'
          ? { ...list, clients: list.clients.filter((c) => c.isClient) }
          : list;
      },
    );
  },
);
