import type { AppTables } from '@aegis/connectors/tables';
import {
  addPropertyRequestSchema,
  appTableParamsSchema,
  copyAppsRequestSchema,
  createTableRequestSchema,
  createTableResponseSchema,
  deleteAppsRequestSchema,
  entityParamsSchema,
  listTablesResponseSchema,
  newAppRequestSchema,
  newAppResponseSchema,
  propertyParamsSchema,
  tableOperationResponseSchema,
  tableParamsSchema,
  tableRowsResponseSchema,
  updateAppRequestSchema,
} from '@aegis/contracts';
import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';

import { registering } from '../../lib/registering';
import { AppTablesService } from '../../services/app-tables-service';

export interface AppTablesRoutesOptions {
  /** The app's one AppTables port (built in app.ts), asked for when a request needs it. */
  readonly tables: () => AppTables;
}

const tags = ['app-tables'];

/** App Deploy tables (spec 2 §2, §5, §7): list, read, create, copy, add, update, delete. */
export const appTablesRoutes: FastifyPluginCallbackZod<AppTablesRoutesOptions> = registering(
  (app, { tables }) => {
    // one service: it serialises the writes to each table within this server
    let service: AppTablesService | undefined;
    const tablesService = () => (service ??= new AppTablesService(tables()));

    app.get(
      '/api/app-tables',
      { config: { role: 'Reader' }, schema: { tags, response: { 200: listTablesResponseSchema } } },
      async () => ({ tables: await tablesService().listTables() }),
    );

    app.post(
      '/api/app-tables',
      {
        config: { role: 'Operator' },
        schema: {
          tags,
          body: createTableRequestSchema,
          response: { 201: createTableResponseSchema },
        },
      },
      async (request, reply) => {
        const created = await tablesService().createClientTable(request.body.clientCode);
        return reply.code(201).send({ status: 201 as const, ...created });
      },
    );

    app.get(
      '/api/app-tables/:table/rows',
      {
        config: { role: 'Reader' },
        schema: { tags, params: tableParamsSchema, response: { 200: tableRowsResponseSchema } },
      },
      async (request) => ({
        table: request.params.table,
        rows: await tablesService().rows(request.params.table),
      }),
    );

    app.post(
      '/api/app-tables/:table/copy',
      {
        config: { role: 'Operator' },
        schema: {
          tags,
          params: appTableParamsSchema,
          body: copyAppsRequestSchema,
          response: { 200: tableOperationResponseSchema },
        },
      },
      async (request) =>
        tablesService().copyApps(request.params.table, request.body.source, request.body.rowKeys),
    );

    app.post(
      '/api/app-tables/:table/apps',
      {
        config: { role: 'Operator' },
        schema: {
          tags,
          params: appTableParamsSchema,
          body: newAppRequestSchema,
          response: { 200: newAppResponseSchema },
        },
      },
      async (request) => tablesService().addNewApp(request.params.table, request.body.app),
    );

    app.patch(
      '/api/app-tables/:table/entities/:partitionKey/:rowKey',
      {
        config: { role: 'Operator' },
        schema: {
          tags,
          params: entityParamsSchema,
          body: updateAppRequestSchema,
          response: { 200: tableOperationResponseSchema },
        },
      },
      async (request) =>
        tablesService().updateApp(
          request.params.table,
          { partitionKey: request.params.partitionKey, rowKey: request.params.rowKey },
          request.body.properties,
          request.body.etag,
        ),
    );

    app.post(
      '/api/app-tables/:table/delete',
      {
        config: { role: 'Operator' },
        schema: {
          tags,
          params: appTableParamsSchema,
          body: deleteAppsRequestSchema,
          response: { 200: tableOperationResponseSchema },
        },
      },
      async (request) => tablesService().deleteApps(request.params.table, request.body.keys),
    );

    app.post(
      '/api/app-tables/:table/properties',
      {
        config: { role: 'Operator' },
        schema: {
          tags,
          params: appTableParamsSchema,
          body: addPropertyRequestSchema,
          response: { 200: tableOperationResponseSchema },
        },
      },
      async (request) =>
        tablesService().addProperty(request.params.table, request.body.name, request.body.value),
    );

    app.delete(
      '/api/app-tables/:table/properties/:name',
      {
        config: { role: 'Operator' },
        schema: {
          tags,
          params: propertyParamsSchema,
          response: { 200: tableOperationResponseSchema },
        },
      },
      async (request) => tablesService().deleteProperty(request.params.table, request.params.name),
    );
  },
);
