import type { AppTables } from '@aegis/connectors/tables';
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
import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';

import { streamProgress } from '../../lib/progress-stream';
import { registering } from '../../lib/registering';
import { ClientPipelinesService } from '../../services/client-pipelines-service';

const tags = ['client-pipelines'];

export interface ClientPipelineRoutesOptions {
  /** The app's one AppTables port (built in app.ts), asked for when a request needs it. */
  readonly tables: () => AppTables;
}

/**
 * App deployment pipelines (/ViewAppList) and Client Pipeline Schedules (spec 2 §2, §5, §7;
 * issue 16): a client's YAML, its app list regenerated from the app table, its weekly schedule.
 */
export const clientPipelineRoutes: FastifyPluginCallbackZod<ClientPipelineRoutesOptions> =
  registering((app, { tables }) => {
    const service = (request: FastifyRequest) =>
      new ClientPipelinesService(request.devops, request.configRepository, tables);

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
  });
