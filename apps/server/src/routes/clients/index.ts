import { createTablesClient, type AppTables } from '@aegis/connectors/tables';
import { clientListQuerySchema, knownClientListSchema } from '@aegis/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

import type { AegisConfig } from '../../config';
import { ClientDirectory } from '../../services/client-directory';

export interface ClientRoutesOptions {
  readonly config: Pick<
    AegisConfig,
    | 'AEGIS_DEVOPS_PROJECT'
    | 'AEGIS_TABLES_CONNECTION_STRING'
    | 'AEGIS_TABLES_ACCOUNT_URL'
    | 'AEGIS_UPSTREAM_TIMEOUT_MS'
  >;
  /** The AppTables port; by default the @azure/data-tables adapter built from configuration. */
  readonly tables?: AppTables;
}

/**
 * The one client list (issue 31 item 3, ADR 054): every code Aegis knows with what it knows of
 * it. Every client picker reads it; Readers may, as every screen that shows one.
 */
export const clientRoutes: FastifyPluginAsyncZod<ClientRoutesOptions> = async (
  app,
  { config, tables },
) => {
  let tablesClient: AppTables | undefined = tables;
  const appTables = () =>
    (tablesClient ??= createTablesClient({
      connectionString: config.AEGIS_TABLES_CONNECTION_STRING,
      accountUrl: config.AEGIS_TABLES_ACCOUNT_URL,
      timeoutInMs: config.AEGIS_UPSTREAM_TIMEOUT_MS,
    }));

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
        appTables,
      ).list();
      return request.query.only === 'clients'
        ? { ...list, clients: list.clients.filter((c) => c.isClient) }
        : list;
    },
  );
};
