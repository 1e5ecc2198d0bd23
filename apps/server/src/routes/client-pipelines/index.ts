import { createTablesClient, type AppTables } from '@aegis/connectors/tables';
import {
  clientFolderParamsSchema,
  clientScheduleListSchema,
  clientYamlPreviewSchema,
  clientYamlSchema,
  clientYamlUpdatedSchema,
  scheduleUpdatedSchema,
  updateClientYamlAppsSchema,
  updateScheduleSchema,
} from '@aegis/contracts';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

import type { AegisConfig } from '../../config';
import { streamProgress } from '../../lib/progress-stream';
import { ClientPipelinesService } from '../../services/client-pipelines-service';

const tags = ['client-pipelines'];

export interface ClientPipelineRoutesOptions {
  readonly config: Pick<
    AegisConfig,
    | 'AEGIS_DEVOPS_PROJECT'
    | 'AEGIS_DEVOPS_CONFIG_REPO'
    | 'AEGIS_TABLES_CONNECTION_STRING'
    | 'AEGIS_TABLES_ACCOUNT_URL'
  >;
  /** The AppTables port; by default the Table storage adapter built from configuration. */
  readonly tables?: AppTables;
}

/**
 * App deployment pipelines (/ViewAppList) and Client Pipeline Schedules (spec 2 §2, §5, §7;
 * issue 16): a client's YAML, its app list regenerated from the app table, its weekly schedule.
 */
export const clientPipelineRoutes: FastifyPluginAsyncZod<ClientPipelineRoutesOptions> = async (
  app,
  { config, tables },
) => {
  let tablesClient: AppTables | undefined = tables;
  const appTables = () =>
    (tablesClient ??= createTablesClient({
      connectionString: config.AEGIS_TABLES_CONNECTION_STRING,
      accountUrl: config.AEGIS_TABLES_ACCOUNT_URL,
    }));
  const service = (request: FastifyRequest) =>
    new ClientPipelinesService(request.devops, request.configRepository, appTables);

  app.get(
    '/api/client-yaml/:folder',
    {
      config: { role: 'Reader' },
      schema: { tags, params: clientFolderParamsSchema, response: { 200: clientYamlSchema } },
    },
    async (request) => service(request).readYaml(request.params.folder),
  );

  app.get(
    '/api/client-yaml/:folder/apps-preview',
    {
      config: { role: 'Reader' },
      schema: {
        tags,
        params: clientFolderParamsSchema,
        response: { 200: clientYamlPreviewSchema },
      },
    },
    async (request) => service(request).previewApps(request.params.folder),
  );

  app.post(
    '/api/client-yaml/:folder/apps',
    {
      config: { role: 'Operator' },
      schema: {
        tags,
        params: clientFolderParamsSchema,
        body: updateClientYamlAppsSchema,
        response: { 200: clientYamlUpdatedSchema },
      },
    },
    async (request) => service(request).updateApps(request.params.folder, request.body.commitId),
  );

  /** The schedule rows as NDJSON progress events, then the rows (the screen's loading bar). */
  app.get(
    '/api/schedules',
    { config: { role: 'Reader' }, schema: { tags } },
    async (request, reply) =>
      streamProgress(request, reply, async (onProgress) => ({
        rows: clientScheduleListSchema.shape.rows.parse(
          await service(request).listSchedules(onProgress),
        ),
      })),
  );

  app.put(
    '/api/schedules/:folder',
    {
      config: { role: 'Operator' },
      schema: {
        tags,
        params: clientFolderParamsSchema,
        body: updateScheduleSchema,
        response: { 200: scheduleUpdatedSchema },
      },
    },
    async (request) => service(request).updateSchedule(request.params.folder, request.body),
  );
};
