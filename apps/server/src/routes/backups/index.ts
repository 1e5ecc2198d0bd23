import { ServiceError } from '@aegis/connectors';
import {
  backupClientParamsSchema,
  backupContentSchema,
  backupListSchema,
  backupRestoreBodySchema,
  backupRestoreSchema,
  backupRunParamsSchema,
  backupRunSchema,
  backupTagQuerySchema,
  manualBackupSchema,
  restorePullRequestListSchema,
  tenantRestoreBodySchema,
} from '@aegis/contracts';
import { hasRole } from '@aegis/domain';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';

import type { AegisConfig } from '../../config';
import { streamProgress } from '../../lib/progress-stream';
import { registering } from '../../lib/registering';
import { actorName } from '../../plugins/auth';
import { BackupsService } from '../../services/backups-service';
import type { ManualBackupGuard } from '../../services/manual-backup-guard';

const tags = ['backups'];

export interface BackupRoutesOptions {
  readonly config: Pick<AegisConfig, 'AEGIS_DEVOPS_PROJECT'>;
  /** One manual backup per client across every instance; none without Table storage (ADR 060). */
  readonly manualBackups?: ManualBackupGuard;
}

/** Tenant Backups (spec 3 §2, §7): history, manual backup, content, comparison, restore, download. */
export const backupRoutes: FastifyPluginCallbackZod<BackupRoutesOptions> = registering(
  (app, { config, manualBackups }) => {
    const service = (request: FastifyRequest) =>
      new BackupsService(
        request.configRepository,
        request.pipelineRuns,
        config.AEGIS_DEVOPS_PROJECT,
      );

    app.get(
      '/api/backups/:client',
      {
        config: { role: 'Reader' },
        schema: { tags, params: backupClientParamsSchema, response: { 200: backupListSchema } },
      },
      async (request) => {
        const { client } = request.params;
        // A read finishes half-made restores only for a user who may restore (an Approver).
        return service(request).listBackups(
          client,
          hasRole(request.user.roles, 'Approver')
            ? {
                finishedBy: actorName(request.user),
                onFinished: ({ tagName, ...restored }) =>
                  request.auditSideChange({
                    action: 'POST /api/backups/:client/restore',
                    clientCode: client,
                    parameters: { params: { client }, body: { tag: tagName } },
                    statusCode: 201,
                    details: { ...restored, finishedWhileListing: true },
                  }),
              }
            : {},
        );
      },
    );

    app.post(
      '/api/backups/:client/runs',
      {
        config: { role: 'Operator' },
        schema: { tags, params: backupClientParamsSchema, response: { 201: manualBackupSchema } },
      },
      async (request, reply) => {
        const backups = service(request);
        const { client } = request.params;
        if (!manualBackups) {
          // without the shared row, two instances could start two backups that make one tag
          throw new ServiceError(
            'Manual backups need Table storage, where the instances record the backup each client is running; it is not configured.',
            { service: 'tables', statusCode: 503, code: 'NotConfigured' },
          );
        }
        const run = await manualBackups.start(
          client,
          (runId) => backups.isBackupRunActive(runId),
          () => backups.startManualBackup(client),
          (error) =>
            request.log.error(
              { err: error, client },
              "the manual backup's shared row could not be updated; its claim holds until it lapses",
            ),
        );
        return reply.code(201).send(run);
      },
    );

    /** A manual backup's run (the screen follows it with the shared run hook, spec 3 §4, §7). */
    app.get(
      '/api/backups/:client/runs/:runId',
      {
        config: { role: 'Reader' },
        schema: { tags, params: backupRunParamsSchema, response: { 200: backupRunSchema } },
      },
      async (request) => service(request).getBackupRun(request.params.runId),
    );

    app.get(
      '/api/backups/:client/content',
      {
        config: { role: 'Reader' },
        schema: {
          tags,
          params: backupClientParamsSchema,
          querystring: backupTagQuerySchema,
          response: { 200: backupContentSchema },
        },
      },
      async (request) => service(request).getContent(request.params.client, request.query.tag),
    );

    /**
     * The comparison as NDJSON: progress events from the reads and the engine, then the result (or
     * an error event once streaming has begun). A tag that does not exist answers 404 before.
     */
    app.get(
      '/api/backups/:client/comparison',
      {
        config: { role: 'Reader', heavy: true },
        schema: { tags, params: backupClientParamsSchema, querystring: backupTagQuerySchema },
      },
      async (request, reply) => {
        const { client } = request.params;
        return streamProgress(request, reply, (onProgress) =>
          service(request).compare(client, request.query.tag, onProgress),
        );
      },
    );

    app.post(
      '/api/backups/:client/restore',
      {
        config: { role: 'Approver' },
        schema: {
          tags,
          params: backupClientParamsSchema,
          body: backupRestoreBodySchema,
          response: { 201: backupRestoreSchema },
        },
      },
      async (request, reply) => {
        const restored = await service(request).restore(
          request.params.client,
          request.body.tag,
          actorName(request.user),
          request.body.policies,
        );
        return reply.code(201).send(restored);
      },
    );

    /** Chosen policies straight back into the tenant, as a deploy of those objects (issue 30 §4). */
    app.post(
      '/api/backups/:client/restore-runs',
      {
        config: { role: 'Approver' },
        schema: {
          tags,
          params: backupClientParamsSchema,
          body: tenantRestoreBodySchema,
          response: { 201: manualBackupSchema },
        },
      },
      async (request, reply) => {
        const run = await service(request).startTenantRestore(
          request.params.client,
          request.body.tag,
          request.body.policies,
        );
        return reply.code(201).send(run);
      },
    );

    app.get(
      '/api/backups/:client/restore-runs/:runId',
      {
        config: { role: 'Reader' },
        schema: { tags, params: backupRunParamsSchema, response: { 200: backupRunSchema } },
      },
      async (request) => service(request).getTenantRestoreRun(request.params.runId),
    );

    app.get(
      '/api/backups/:client/restores',
      {
        config: { role: 'Reader' },
        schema: {
          tags,
          params: backupClientParamsSchema,
          response: { 200: restorePullRequestListSchema },
        },
      },
      async (request) => service(request).listRestorePullRequests(request.params.client),
    );

    app.get(
      '/api/backups/:client/download',
      {
        config: { role: 'Reader', heavy: true },
        schema: { tags, params: backupClientParamsSchema, querystring: backupTagQuerySchema },
      },
      async (request, reply) => {
        const { fileName, bytes } = await service(request).download(
          request.params.client,
          request.query.tag,
        );
        return reply
          .header('content-type', 'application/zip')
          .header('content-disposition', `attachment; filename="${fileName}"`)
          .header('cache-control', 'no-store')
          .send(Buffer.from(bytes));
      },
    );
  },
);
